import { z } from 'zod';
import { Timestamp, text } from './common';
import { HttpUrlSchema } from './organization';

/** A spec's slug: lowercase words joined by single dashes, as the specification's Formats say. */
export const SpecSlugSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be lowercase letters and digits in words joined by single dashes, such as petstore-v2');

/** Stages a spec moves through after each create or put: pending → progress → complete | failed. */
export const OPENAPI_PROCESSING_STATES = ['pending', 'progress', 'complete', 'failed'] as const;
export type OpenAPIProcessingState = (typeof OPENAPI_PROCESSING_STATES)[number];

/** Why the last processing failed. */
export const OPENAPI_ERROR_CODES = ['FETCH_TIMEOUT', 'FETCH_FAILED', 'TOO_LARGE', 'PARSE_ERROR', 'INVALID_SPEC', 'INTERNAL_ERROR'] as const;
export type OpenAPIErrorCode = (typeof OPENAPI_ERROR_CODES)[number];

export const OpenAPISpecVisibilitySchema = z.enum(['private', 'public']);

export const OpenAPISpecSchema = z
  .object({
    object: z.literal('openapi-spec'),
    id: z.string(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    slug: z.string(),
    sourceURL: z.string().optional(),
    processingState: z.enum(OPENAPI_PROCESSING_STATES),
    visibility: OpenAPISpecVisibilitySchema,
    lastVersion: z.string().optional(),
    lastProcessedAt: Timestamp.optional(),
    lastProcessErrorCode: z.enum(OPENAPI_ERROR_CODES).optional(),
    lastProcessedErrors: z.array(z.object({ message: z.string(), code: z.string() })).optional(),
    /** How many errors the last processing met: 0 unless it failed. */
    lastProcessedErrorCount: z.number().int(),
    permissions: z.object({ view: z.boolean(), edit: z.boolean() }),
    urls: z.object({ location: z.string(), app: z.string(), published: z.string().optional() }),
  })
  .meta({ id: 'OpenAPISpec' });
export type OpenAPISpec = z.infer<typeof OpenAPISpecSchema>;

/** The largest spec accepted inline; fetched specs have their own (larger) cap. */
export const MAX_INLINE_SPEC_CHARS = 1_000_000;

/** Where a spec comes from: a URL fetched by the server, or the document itself as text (JSON or YAML). */
export const OpenAPISourceSchema = z.union(
  [z.strictObject({ url: HttpUrlSchema }), z.strictObject({ text: text(MAX_INLINE_SPEC_CHARS, 1) })],
  {
    error: (issue) =>
      `${issue.input === undefined ? 'is required' : 'must be'} either {"url": an http(s) URL} or {"text": the spec as JSON or YAML}`,
  },
);
export type OpenAPISource = z.infer<typeof OpenAPISourceSchema>;

export const CreateOpenAPISpecBody = z.strictObject({
  slug: SpecSlugSchema,
  source: OpenAPISourceSchema,
  visibility: OpenAPISpecVisibilitySchema.optional(),
});
export type CreateOpenAPISpecBody = z.infer<typeof CreateOpenAPISpecBody>;

export const PutOpenAPISpecBody = z.strictObject({
  source: OpenAPISourceSchema,
  visibility: OpenAPISpecVisibilitySchema.optional(),
});

export const UpdateOpenAPISpecBody = z.strictObject({ visibility: OpenAPISpecVisibilitySchema });
