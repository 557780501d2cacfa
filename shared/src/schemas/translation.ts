import { z } from 'zod';
import { DocumentSchema, IdSchema, Timestamp } from './common';
import { LanguageSchema } from './space';

/**
 * `pending`: a run is asked for (or none ever ran); `running`: a run is under way; `completed`: the last run copied
 * and translated the source; `failed`: the last run stopped, `error` says why.
 */
export const TRANSLATION_STATUSES = ['pending', 'running', 'completed', 'failed'] as const;

/** When an out-of-date translation runs again by itself: never (`manual`: on request), or at most once an hour, day or week. */
export const TRANSLATION_SCHEDULES = ['manual', 'hourly', 'daily', 'weekly'] as const;
export type TranslationStatus = (typeof TRANSLATION_STATUSES)[number];

export const TranslationSchema = z
  .object({
    object: z.literal('translation'),
    id: z.string(),
    status: z.enum(TRANSLATION_STATUSES),
    source: z.object({ space: z.string(), language: z.string().optional() }),
    language: z.string(),
    /** An empty document when none were given. */
    instructions: DocumentSchema,
    /** The space the translated copy lives in, and its revision after the last run; set by the first run. */
    result: z.object({ space: z.string(), revision: z.string().optional() }).optional(),
    /** Why the last run failed. */
    error: z.object({ code: z.string(), message: z.string() }).optional(),
    /** The source changed since the last completed run: a new run would bring the result up to date. */
    outdated: z.boolean(),
    /**
     * Pages the last run did not overwrite: a person had fixed them in the result, and their
     * source changed too. Their fix is kept; the message says what to check.
     */
    conflicts: z.array(z.object({ page: z.string(), title: z.string(), message: z.string() })),
    schedule: z.enum(TRANSLATION_SCHEDULES),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    /** Durations in milliseconds; words and pages are those sent for translation. */
    stats: z.object({
      runs: z.number(),
      totalWords: z.number(),
      totalPages: z.number(),
      totalDuration: z.number(),
      latestRunDuration: z.number(),
      latestPages: z.number(),
      latestWords: z.number(),
    }),
    permissions: z.object({ view: z.boolean(), edit: z.boolean() }),
    urls: z.object({ location: z.string() }),
  })
  .meta({ id: 'Translation' });
export type Translation = z.infer<typeof TranslationSchema>;

export const CreateTranslationBody = z.strictObject({
  source: z.strictObject({
    space: IdSchema,
    /** The source's language; defaults to the space's `language`, else detected by the provider. */
    language: LanguageSchema.optional(),
  }),
  language: LanguageSchema,
  instructions: DocumentSchema.optional(),
  schedule: z.enum(TRANSLATION_SCHEDULES).optional(),
});
export type CreateTranslationBody = z.infer<typeof CreateTranslationBody>;

export const UpdateTranslationBody = z
  .strictObject({ instructions: DocumentSchema.optional(), schedule: z.enum(TRANSLATION_SCHEDULES).optional() })
  .refine((b) => b.instructions !== undefined || b.schedule !== undefined, {
    message: 'Missing body field "instructions" or "schedule": give at least one.',
  });
