import { z } from 'zod';

export const UserSchema = z
  .object({
    object: z.literal('user'),
    id: z.string(),
    displayName: z.string(),
    email: z.string(),
    photoURL: z.string().optional(),
    urls: z.object({ location: z.string() }),
  })
  .meta({ id: 'User' });
export type User = z.infer<typeof UserSchema>;
