import { z } from 'zod';
import { Timestamp, listOf } from './common';
import { PageSchema } from './content';

/**
 * A page's history (an extension beside the specification): the revisions of a space's
 * main content that added, edited or removed one page, newest first.
 */
export const PAGE_CHANGES = ['added', 'edited', 'removed'] as const;

export const PageRevisionSchema = z
  .object({
    object: z.literal('page-revision'),
    /** The revision's id: `GET /v1/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}` reads the page in it. */
    revision: z.string(),
    /** What the revision did to the page. */
    change: z.enum(PAGE_CHANGES),
    /** The page's title in that revision. */
    title: z.string(),
    /** Why the revision was cut (`edits`, `merge`, `import`, `restore`, …). */
    type: z.string(),
    /** The user whose edits it holds (live or through the API), or who restored the page; absent when unknown. */
    createdBy: z.string().optional(),
    /** For a `restore`: the revision whose page was brought back (the revision's second parent). */
    restoredFrom: z.string().optional(),
    createdAt: Timestamp,
    /** Every page the revision changed (this one included), at most 50: what a history says was touched with it. */
    pages: z.array(z.object({ id: z.string(), title: z.string(), change: z.enum(PAGE_CHANGES) })).optional(),
    /** `page`: the page as it was in this revision. */
    urls: z.object({ page: z.string() }),
    /** A revision is an immutable snapshot: whoever reads it may only view it. */
    permissions: z.object({ view: z.boolean() }),
  })
  .meta({ id: 'PageRevision' });
export type PageRevision = z.infer<typeof PageRevisionSchema>;

export const PageRevisionListSchema = listOf(PageRevisionSchema);
export type PageRevisionList = z.infer<typeof PageRevisionListSchema>;

/**
 * `document` and `markdown` as the page reads answer them; `body` is the content model's
 * own node JSON (the y-prosemirror layout), exact, for a client that restores it.
 */
export const REVISION_PAGE_FORMATS = ['document', 'markdown', 'body'] as const;

export const RevisionPageQuery = z.object({ format: z.enum(REVISION_PAGE_FORMATS).optional() });

export const RevisionPageSchema = z
  .object({
    object: z.literal('revision-page'),
    revision: z.string(),
    /** The page as it was in the revision (`markdown` or `document` set by `format`). */
    page: PageSchema,
    /** With `format=body`. */
    body: z.unknown().optional(),
    urls: z.object({ location: z.string() }),
    permissions: z.object({ view: z.boolean() }),
  })
  .meta({ id: 'RevisionPage' });
export type RevisionPage = z.infer<typeof RevisionPageSchema>;

/**
 * A revision of a space's main content as its whole Yjs state (an extension beside the
 * specification): a client rebuilds the content exactly as it was, to draw a change
 * request's changes against the revision it started from.
 */
export const RevisionStateSchema = z
  .object({
    object: z.literal('revision-state'),
    revision: z.string(),
    /** `Y.encodeStateAsUpdate` of the revision's document (update format v1), in base64. */
    state: z.string(),
    urls: z.object({ location: z.string() }),
    permissions: z.object({ view: z.boolean() }),
  })
  .meta({ id: 'RevisionState' });
export type RevisionState = z.infer<typeof RevisionStateSchema>;
