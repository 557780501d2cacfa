import { z } from 'zod';
import { IdSchema, ListQuerySchema, OrderSchema, Timestamp, patchBody, text } from './common';
import { UserSchema } from './user';

/** A comment is open until someone resolves it. */
export const COMMENT_STATUSES = ['open', 'resolved'] as const;
export type CommentStatus = (typeof COMMENT_STATUSES)[number];

/** How a comment's body is returned: GitBook-flavoured markdown (default) or the document (ProseMirror JSON). */
export const COMMENT_FORMATS = ['markdown', 'document'] as const;
export type CommentFormat = (typeof COMMENT_FORMATS)[number];

export const MAX_COMMENT_MARKDOWN = 100_000;

const ReactionSchema = z.object({
  emoji: z.string(),
  count: z.number().int(),
  users: z.array(z.object({ user: UserSchema, reactedAt: Timestamp })),
});

const CommentBodyOut = z.object({ markdown: z.string().optional(), document: z.unknown().optional() });

const Permissions = z.object({ view: z.boolean(), edit: z.boolean(), reply: z.boolean(), delete: z.boolean() });

export const CommentTargetSchema = z.object({
  node: z.object({ id: z.string(), preview: z.string().optional() }).optional(),
  tableCell: z.object({ record: z.string(), definition: z.string() }).optional(),
  changeRequest: z.string().optional(),
  review: z.string().optional(),
  page: z
    .object({
      id: z.string(),
      title: z.string().optional(),
      emoji: z.string().optional(),
      icon: z.string().optional(),
      createdAt: Timestamp.optional(),
      updatedAt: Timestamp.optional(),
      path: z.string().optional(),
      /** The page, or the node the comment targets in it, no longer exists in the branch. */
      outdated: z.boolean(),
    })
    .optional(),
  space: z.string(),
  revision: z.string().optional(),
});

export const CommentSchema = z
  .object({
    object: z.literal('comment'),
    id: z.string(),
    postedBy: UserSchema,
    postedAt: Timestamp,
    editedAt: Timestamp.optional(),
    reactions: z.array(ReactionSchema),
    replies: z.number().int(),
    /** Who replied, each with their number of replies and when they last replied. */
    repliers: z.array(z.object({ user: UserSchema, count: z.number().int(), updatedAt: Timestamp })),
    body: CommentBodyOut,
    target: CommentTargetSchema,
    urls: z.object({ location: z.string() }),
    permissions: Permissions,
    status: z.enum(COMMENT_STATUSES),
    resolvedAt: Timestamp.optional(),
    resolvedBy: UserSchema.optional(),
  })
  .meta({ id: 'Comment' });
export type Comment = z.infer<typeof CommentSchema>;

export const CommentReplySchema = z
  .object({
    object: z.literal('comment-reply'),
    id: z.string(),
    postedBy: UserSchema,
    postedAt: Timestamp,
    editedAt: Timestamp.optional(),
    reactions: z.array(ReactionSchema),
    body: CommentBodyOut,
    urls: z.object({ location: z.string() }),
    permissions: Permissions,
  })
  .meta({ id: 'CommentReply' });
export type CommentReply = z.infer<typeof CommentReplySchema>;

/** A body as sent: markdown, or a document (ProseMirror JSON of the page body schema). */
export const CommentBodyInput = z.union(
  [
    z.strictObject({ markdown: text(MAX_COMMENT_MARKDOWN).refine((s) => s.trim().length > 0, 'must not be blank') }),
    z.strictObject({ document: z.record(z.string(), z.unknown()) }),
  ],
  {
    error: (issue) => `${issue.input === undefined ? 'is required' : 'must be'} either {"markdown": text} or {"document": a body document}`,
  },
);
export type CommentBodyInput = z.infer<typeof CommentBodyInput>;

/** One emoji (a short string: a grapheme, or a `:shortcode:`). */
const Emoji = text(64, 1).refine((s) => s.trim() === s, 'must be an emoji without spaces around it');
const Emojis = z.array(Emoji).max(20);

export const CreateCommentBody = z.strictObject({
  page: IdSchema.optional(),
  node: text(256, 1).optional(),
  tableCell: z.strictObject({ record: text(256, 1), definition: text(256, 1) }).optional(),
  body: CommentBodyInput,
});
export type CreateCommentBody = z.infer<typeof CreateCommentBody>;

export const UpdateCommentBody = patchBody({
  resolved: z.boolean().optional(),
  body: CommentBodyInput.optional(),
  addedReactions: Emojis.optional(),
  removedReactions: Emojis.optional(),
});
export type UpdateCommentBody = z.infer<typeof UpdateCommentBody>;

export const CreateCommentReplyBody = z.strictObject({ body: CommentBodyInput });

export const UpdateCommentReplyBody = patchBody({
  body: CommentBodyInput.optional(),
  addedReactions: Emojis.optional(),
  removedReactions: Emojis.optional(),
});
export type UpdateCommentReplyBody = z.infer<typeof UpdateCommentReplyBody>;

export const CommentFormatQuery = z.object({ format: z.enum(COMMENT_FORMATS).optional() });

/**
 * `authors` filter: repeated (`authors=a&authors=b`) or comma-separated (`authors=a,b`),
 * as different clients send arrays.
 */
const AuthorsQuery = z
  .union([z.string(), z.array(z.string())])
  .transform((v) =>
    (Array.isArray(v) ? v : [v])
      .flatMap((s) => s.split(','))
      .map((s) => s.trim())
      .filter(Boolean),
  )
  .pipe(z.array(IdSchema).max(100))
  .meta({ type: 'array', items: { type: 'string' } });

export const ListCommentsQuery = ListQuerySchema.extend({
  order: OrderSchema.optional(),
  status: z.enum(['all', ...COMMENT_STATUSES]).optional(),
  format: z.enum(COMMENT_FORMATS).optional(),
  targetPage: IdSchema.optional(),
  authors: AuthorsQuery.optional(),
});
export type ListCommentsQuery = z.infer<typeof ListCommentsQuery>;

export const ListRepliesQuery = ListQuerySchema.extend({
  format: z.enum(COMMENT_FORMATS).optional(),
  order: OrderSchema.optional(),
});
