import { z } from 'zod';

export const UserSchema = z
  .object({
    object: z.literal('user'),
    id: z.string(),
    displayName: z.string(),
    email: z.string(),
    photoURL: z.string().optional(),
    urls: z.object({ location: z.string() }),
    /** A user shown to the caller is one they may see; users are changed by no operation here. */
    permissions: z.object({ view: z.boolean() }),
  })
  .meta({ id: 'User' });
export type User = z.infer<typeof UserSchema>;

/** Shortest password accepted, for one set by an operator or changed by its owner. */
export const MIN_PASSWORD_LENGTH = 12;

/** `PUT /v1/user/password`: the caller changes their own password, proving the current one. */
export const ChangePasswordBodySchema = z
  .strictObject({
    currentPassword: z.string().min(1).max(1024).meta({ description: 'The password the caller signs in with now.' }),
    newPassword: z
      .string()
      .min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`)
      .max(1024)
      .refine((p) => new Set(p).size >= 5, 'is too easy to guess: use at least 5 different characters')
      .meta({ description: `At least ${MIN_PASSWORD_LENGTH} characters, not the current password.` }),
  })
  .meta({ id: 'ChangePasswordBody' });
export type ChangePasswordBody = z.infer<typeof ChangePasswordBodySchema>;
