import { z } from 'zod';
import { DocumentSchema, IdSchema, ListQuerySchema, QueryBoolean, Timestamp, listOf, patchBody, text } from './common';
import { COMMENT_FORMATS, CommentBodyInput, CommentSchema } from './comment';
import { TemplateBody } from './content';
import { UserSchema } from './user';

export const CHANGE_REQUEST_STATUSES = ['draft', 'open', 'merged', 'archived'] as const;
export const ChangeRequestStatusSchema = z.enum(CHANGE_REQUEST_STATUSES).meta({ id: 'ChangeRequestStatus' });
export type ChangeRequestStatus = z.infer<typeof ChangeRequestStatusSchema>;

export const ChangeRequestSchema = z
  .object({
    object: z.literal('change-request'),
    id: z.string(),
    /** Counts up from 1 within the space; paths accept it in place of the id. */
    number: z.number().int(),
    status: ChangeRequestStatusSchema,
    /** `''` when the change request was opened without one. */
    subject: z.string(),
    description: DocumentSchema.optional(),
    createdBy: UserSchema,
    createdAt: Timestamp,
    updatedAt: Timestamp,
    mergedAt: Timestamp.optional(),
    mergedBy: UserSchema.optional(),
    space: z.string(),
    revision: z.string(),
    revisionInitial: z.string(),
    revisionMergedAncestor: z.string(),
    revisionMerged: z.string().optional(),
    comments: z.number().int(),
    outdated: z.boolean(),
    urls: z.object({ app: z.string(), location: z.string() }),
    permissions: z.object({
      view: z.boolean(),
      edit: z.boolean(),
      comment: z.boolean(),
      review: z.boolean(),
      merge: z.boolean(),
    }),
  })
  .meta({ id: 'ChangeRequest' });
export type ChangeRequest = z.infer<typeof ChangeRequestSchema>;

const Subject = text(256);

export const CreateChangeRequestBody = z.strictObject({
  subject: Subject.optional(),
  agentTaskId: IdSchema.optional(),
  /** A built-in template whose pages the change request starts with (as `POST .../content/template` adds them). */
  template: TemplateBody.omit({ changeRequestId: true }).optional(),
});

/**
 * Fields the public client of this API family may send for features this server does not
 * have: refused with a message that says so, rather than as unknown.
 */
function unsupported(what: string) {
  return z
    .unknown()
    .refine(() => false, `${what} are not supported by this server`)
    .optional();
}

export const UpdateChangeRequestBody = patchBody({
  subject: Subject.optional(),
  description: DocumentSchema.optional(),
  /** `merged` is reached only by merging. */
  status: z.enum(['draft', 'open', 'archived']).optional(),
  links: unsupported('links to external tickets'),
});
export type UpdateChangeRequestBody = z.infer<typeof UpdateChangeRequestBody>;

export const ChangeRequestOrderBySchema = z.enum(['createdAt', 'updatedAt']);

/** One status, or several (`status=open&status=draft`): a change request in any of them matches. */
const StatusFilter = z
  .union([ChangeRequestStatusSchema, z.array(ChangeRequestStatusSchema).max(CHANGE_REQUEST_STATUSES.length)])
  .transform((v) => (Array.isArray(v) ? v : [v]))
  .meta({ type: 'array', items: { type: 'string', enum: [...CHANGE_REQUEST_STATUSES] } });

/** Filters of a space's change request list (the public client's parameter names). */
export const ChangeRequestListQuery = ListQuerySchema.extend({
  status: StatusFilter.optional(),
  creator: IdSchema.optional(),
  contributor: IdSchema.optional(),
  requestedReviewer: IdSchema.optional(),
  /** Change requests here have no topics: a topic filter matches none. */
  topic: text(256, 1).optional(),
  orderBy: ChangeRequestOrderBySchema.optional(),
});

/** The organization-wide list adds the space and site filters. */
export const OrgChangeRequestListQuery = ChangeRequestListQuery.extend({
  space: IdSchema.optional(),
  site: IdSchema.optional(),
  styleguideRun: IdSchema.optional(),
  /** Change requests here come from no site finding: `none` matches them all, `all` or a finding id none. */
  finding: IdSchema.optional(),
});

export const MergeResultSchema = z.object({ revision: z.string(), result: z.literal('merge') }).meta({ id: 'ChangeRequestMergeResult' });
export const UpdateResultSchema = z.object({ revision: z.string(), result: z.literal('update') }).meta({ id: 'ChangeRequestUpdateResult' });

export const ReviewStatusSchema = z.enum(['approved', 'changes-requested']).meta({ id: 'ChangeRequestReviewStatus' });

export const ChangeRequestReviewSchema = z
  .object({
    object: z.literal('change-request-review'),
    id: z.string(),
    status: ReviewStatusSchema,
    reviewer: UserSchema,
    /** Who asked for the review, when the reviewer was requested. */
    requestedBy: UserSchema.optional(),
    /** The revision reviewed; later edits make the review outdated. */
    revision: z.string(),
    outdated: z.boolean(),
    /** What the reviewer wrote with the review, in the shape of a comment on the change request. */
    comment: CommentSchema.optional(),
    createdAt: Timestamp,
    /** Reviews are not edited: the same as `createdAt`. */
    updatedAt: Timestamp,
    urls: z.object({ location: z.string() }),
    permissions: z.object({ view: z.boolean() }),
  })
  .meta({ id: 'ChangeRequestReview' });
export type ChangeRequestReview = z.infer<typeof ChangeRequestReviewSchema>;

export const CreateReviewBody = z.strictObject({
  status: ReviewStatusSchema,
  /** A comment body (`{markdown}` or `{document}`), or a bare Document as earlier clients sent it. */
  comment: z
    .union([CommentBodyInput, DocumentSchema], { error: () => 'must be {"markdown": text}, {"document": a body document} or a Document' })
    .optional(),
});
export type CreateReviewBody = z.infer<typeof CreateReviewBody>;

export const ReviewQuery = z.object({ format: z.enum(COMMENT_FORMATS).optional() });

export const ListReviewsQuery = ListQuerySchema.extend({
  format: z.enum(COMMENT_FORMATS).optional(),
  /** `true`: only reviews of an earlier revision than the current one; `false`: only reviews of the current one. */
  outdated: QueryBoolean.optional(),
});

export const RequestedReviewerSchema = z
  .object({
    object: z.literal('change-request-requested-reviewer'),
    /** Reviewers here are users (teams are not requested). */
    kind: z.literal('user'),
    user: UserSchema,
    requestedBy: UserSchema.optional(),
    requestedAt: Timestamp,
    /** The same as `requestedAt`. */
    createdAt: Timestamp,
    /** The revision the reviewer is asked to review: the change request's current one. */
    revision: z.string(),
    /** The reviewer's latest review, when they gave one. */
    review: ReviewStatusSchema.optional(),
    urls: z.object({ location: z.string() }),
    permissions: z.object({ remove: z.boolean() }),
  })
  .meta({ id: 'ChangeRequestRequestedReviewer' });
export type RequestedReviewer = z.infer<typeof RequestedReviewerSchema>;

export const RequestReviewersBody = z.strictObject({
  users: z.array(IdSchema).min(1).max(50),
  /** Also renames the change request. */
  subject: Subject.optional(),
  /** Also replaces the change request's description. */
  description: DocumentSchema.optional(),
});

/** Every requested reviewer after the request: as a list, and as `users` (what the public client reads). */
export const RequestReviewersResultSchema = listOf(RequestedReviewerSchema).extend({ users: z.array(RequestedReviewerSchema) });

/** `only` with `page`: the PDF of that one page, else of the whole change request. */
export const ChangeRequestPdfQuery = z.object({
  only: QueryBoolean.optional(),
  page: IdSchema.optional(),
});

export const PdfUrlSchema = z.object({ url: z.string() }).meta({ id: 'PdfURL' });
