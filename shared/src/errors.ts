import { z } from 'zod';

/** The one error body every non-2xx answer carries. */
export const ErrorBodySchema = z
  .object({
    error: z.object({
      code: z.number().int(),
      message: z.string(),
    }),
  })
  .meta({ id: 'Error' });
export type ErrorBody = z.infer<typeof ErrorBodySchema>;
