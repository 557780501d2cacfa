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
