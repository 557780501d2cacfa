import { z } from 'zod';
import { ID_PATTERN } from '../ids';

/** Roles from least to most powerful; the order is what comparisons use. */
export const ROLES = ['read', 'comment', 'edit', 'review', 'create', 'admin'] as const;
export const RoleSchema = z.enum(ROLES).meta({ id: 'Role' });
export type Role = z.infer<typeof RoleSchema>;

export const TEAM_ROLES = ['member', 'owner'] as const;
export const TeamRoleSchema = z.enum(TEAM_ROLES).meta({ id: 'TeamRole' });
export type TeamRole = z.infer<typeof TeamRoleSchema>;

/** Any id in a path or body: checked for shape before it reaches SQL. */
export const IdSchema = z.string().regex(ID_PATTERN, 'must be an id (letters, digits, _ and -)');

export const Timestamp = z.string().meta({ format: 'date-time' });

/** A text field with the NUL character refused (PostgreSQL cannot store it). */
export function text(max: number, min = 0) {
  return z
    .string()
    .min(min)
    .max(max)
    .refine((s) => !s.includes('\u0000'), 'must not contain NUL characters');
}

/** A query-string boolean: `true` or `false`, nothing else. */
export const QueryBoolean = z
  .enum(['true', 'false'])
  .transform((v) => v === 'true')
  .meta({ type: 'boolean' });

/**
 * `limit`: a whole number from 1 to 1000; refused, never clamped, outside it. The digits
 * pattern already makes it whole, so a huge number reads "at most 1000" like any other.
 */
export const LimitSchema = z
  .string()
  .regex(/^\d+$/, 'must be a whole number from 1 to 1000')
  .transform(Number)
  .pipe(z.number().min(1, 'must be at least 1').max(1000, 'must be at most 1000'))
  .meta({ type: 'integer', minimum: 1, maximum: 1000, default: 50 });

export const PageCursorSchema = z.string().max(512).meta({ description: 'Opaque cursor from `next.page` of the previous answer.' });

/** Query parameters every list operation takes. */
export const ListQuerySchema = z.object({
  page: PageCursorSchema.optional(),
  limit: LimitSchema.optional(),
});
export type ListQuery = z.infer<typeof ListQuerySchema>;

export const OrderSchema = z.enum(['asc', 'desc']);

/** The list envelope of every list answer. */
export function listOf<T extends z.ZodTypeAny>(item: T) {
  return z.object({
    items: z.array(item),
    count: z.number().int(),
    next: z.object({ page: z.string() }).optional(),
  });
}
export interface List<T> {
  items: T[];
  count: number;
  next?: { page: string };
}

/**
 * Rich text (change request descriptions, instructions). Nodes stay open-ended on purpose;
 * the document itself is strict like every body (an unknown field is refused, not dropped).
 * `meta` is the public client's (a content token it may carry along).
 */
export const DocumentSchema = z
  .strictObject({
    object: z.literal('document'),
    data: z.record(z.string(), z.unknown()).optional(),
    nodes: z.array(z.record(z.string(), z.unknown())),
    meta: z.strictObject({ token: z.string().max(4096).optional() }).optional(),
  })
  .meta({ id: 'Document' });
export type Document = z.infer<typeof DocumentSchema>;

/**
 * `inherit` takes the organization's rules, `none` turns merge rules off (any change request
 * merges without review), `rules` must all pass. Of the rule kinds the public client knows,
 * only the one this server enforces is accepted: the others are refused, never ignored.
 */
export const MergeRulesSchema = z
  .discriminatedUnion('type', [
    z.strictObject({ type: z.literal('inherit') }),
    z.strictObject({ type: z.literal('none') }),
    z.strictObject({
      type: z.literal('rules'),
      rules: z
        .array(
          z.strictObject({
            rule: z.literal('require_specific_reviewers', {
              error: 'only "require_specific_reviewers" is supported by this server',
            }),
            users: z.array(IdSchema).max(100),
          }),
        )
        .max(20),
    }),
  ])
  .meta({ id: 'MergeRules' });
export type MergeRules = z.infer<typeof MergeRulesSchema>;

/** Idempotent empty answer (DELETE and friends). */
export const NoContent = { description: 'No content' } as const;

/**
 * A PATCH body: strict (unknown fields refused) and never empty, so a client that sends
 * nothing by mistake hears about it instead of getting a silent no-op.
 */
export function patchBody<T extends z.ZodRawShape>(shape: T) {
  return z.strictObject(shape).refine((o) => Object.keys(o).length > 0, 'must set at least one field');
}
