import { z } from 'zod';
import { DocumentSchema, IdSchema, ListQuerySchema, QueryBoolean, Timestamp, patchBody, text } from './common';
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
    subject: z.string().optional(),
    description: DocumentSchema.optional(),
    createdBy: UserSchema,
    createdAt: Timestamp,
    updatedAt: Timestamp,
    mergedAt: Timestamp.optional(),
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
});

export const UpdateChangeRequestBody = patchBody({
  subject: Subject.optional(),
  description: DocumentSchema.optional(),
  /** `merged` is reached only by merging. */
  status: z.enum(['draft', 'open', 'archived']).optional(),
});
export type UpdateChangeRequestBody = z.infer<typeof UpdateChangeRequestBody>;

export const ChangeRequestOrderBySchema = z.enum(['createdAt', 'updatedAt']);

/** Filters of a space's change request list (the public client's parameter names). */
export const ChangeRequestListQuery = ListQuerySchema.extend({
  status: ChangeRequestStatusSchema.optional(),
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
    /** The revision reviewed; later edits make the review outdated. */
    revision: z.string(),
    outdated: z.boolean(),
    comment: DocumentSchema.optional(),
    createdAt: Timestamp,
    urls: z.object({ location: z.string() }),
    permissions: z.object({ view: z.boolean() }),
  })
  .meta({ id: 'ChangeRequestReview' });

export const CreateReviewBody = z.strictObject({
  status: ReviewStatusSchema,
  comment: DocumentSchema.optional(),
});

export const RequestedReviewerSchema = z
  .object({
    object: z.literal('change-request-requested-reviewer'),
    user: UserSchema,
    requestedAt: Timestamp,
    /** The reviewer's latest review, when they gave one. */
    review: ReviewStatusSchema.optional(),
    urls: z.object({ location: z.string() }),
    permissions: z.object({ remove: z.boolean() }),
  })
  .meta({ id: 'ChangeRequestRequestedReviewer' });

export const RequestReviewersBody = z.strictObject({
  users: z.array(IdSchema).min(1).max(50),
});

/** `only` with `page`: the PDF of that one page, else of the whole change request. */
export const ChangeRequestPdfQuery = z.object({
  only: QueryBoolean.optional(),
  page: IdSchema.optional(),
});

export const PdfUrlSchema = z.object({ url: z.string() }).meta({ id: 'PdfURL' });
