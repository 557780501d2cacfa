import { z } from 'zod';
import { CreateChangeRequestBody } from './changeRequest';
import { IdSchema, text } from './common';

/**
 * Arguments of the MCP tools that have no /v1 operation of their own. The tools that do
 * (lists, search, reads, reviews, comments) take that operation's schemas.
 */

/** A published site's search, as `~search?q=` takes it. */
export const SiteSearchArgs = z.strictObject({ query: text(200, 1) });

/** A page of a published site: its path below the site root or its URL, with or without `.md`. */
export const SitePageArgs = z.strictObject({ page: text(2048, 1) });

export const NoArgs = z.strictObject({});

/** Where a proposed edit goes: a change request (the default), or main itself when the caller asks and may. */
export const EDIT_TARGETS = ['change-request', 'main'] as const;

export const MAX_PAGE_MARKDOWN = 500_000;

export const ProposeEditArgs = z.strictObject({
  spaceId: IdSchema,
  /** The page whose body the markdown replaces; without it a new page is added. */
  pageId: IdSchema.optional(),
  /** The page's new title (required for a new page). */
  title: text(256, 1).optional(),
  /** Where a new page goes. */
  parentPageId: IdSchema.optional(),
  /** The whole new body, GitBook-flavoured markdown (front matter sets description, icon, layout). */
  markdown: text(MAX_PAGE_MARKDOWN),
  target: z.enum(EDIT_TARGETS).optional(),
  /** An open change request to write into; without it one is opened. */
  changeRequestId: IdSchema.optional(),
  /** The subject of the change request opened for the edit. */
  subject: CreateChangeRequestBody.shape.subject,
});
export type ProposeEditArgs = z.infer<typeof ProposeEditArgs>;
