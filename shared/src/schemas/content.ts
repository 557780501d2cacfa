import { z } from 'zod';
import { IdSchema, ListQuerySchema, QueryBoolean, Timestamp, listOf, text } from './common';
import { OrganizationSchema } from './organization';
import { SpaceSchema } from './space';

/** `kind` plus a field named after it: what templates and computed pages point at. */
export const ContentRefSchema = z
  .discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('openapi'), spec: text(100, 1) }),
    z.strictObject({ kind: z.literal('file'), file: IdSchema }),
    z.strictObject({ kind: z.literal('page'), page: IdSchema }),
    z.strictObject({ kind: z.literal('url'), url: text(2048, 1) }),
  ])
  .meta({ id: 'ContentRef' });
export type ContentRef = z.infer<typeof ContentRefSchema>;

export const FileSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    contentType: z.string(),
    downloadURL: z.string(),
    size: z.number().int(),
    dimensions: z.object({ width: z.number(), height: z.number() }).optional(),
    git: z.object({ oid: z.string(), path: z.string() }).optional(),
  })
  .meta({ id: 'File' });
export type File = z.infer<typeof FileSchema>;

/**
 * A file id the uploader chooses (`PUT …/content/files/{fileId}`): random and at least 20
 * characters like every id, so a client can name a file before the server has seen it and
 * keep that name everywhere.
 */
export const UploadFileIdSchema = z.string().regex(/^[A-Za-z0-9_-]{20,64}$/, 'must be a new random id: 20 to 64 letters, digits, _ or -');

/** The query of a file upload: the name the file is shown and downloaded under. */
export const FileUploadQuery = z.strictObject({
  name: text(255, 1)
    .refine((s) => !/[/\\]/.test(s), 'must be a file name, without / or \\')
    .meta({ description: 'The file name shown to readers and used for downloads' }),
});

/** `Content-Type` of an upload: the file's own media type (stored, and served back with it). */
export const FileUploadHeaders = z.object({
  'content-type': z
    .string()
    .max(255)
    .regex(/^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*(\s*;.*)?$/i, 'must be a media type such as image/png')
    .meta({ description: "The file's media type" }),
});

const PageLayoutSchema = z.record(z.string(), z.unknown());

export interface Page {
  id: string;
  title: string;
  emoji?: string;
  icon?: string;
  createdAt?: string;
  updatedAt?: string;
  markdown?: string;
  document?: unknown;
  type: string;
  kind?: string;
  href?: string;
  target?: { kind: 'page'; page: string } | { kind: 'url'; url: string };
  urls: { app: string };
  slug: string;
  path: string;
  description?: string;
  pages: Page[];
  git?: { oid: string; path: string };
  layout?: Record<string, unknown>;
  cover?: unknown;
  variables?: Record<string, string>;
  hidden: boolean;
  noIndex?: boolean;
  noRobotsIndex?: boolean;
  computed?: { type: string; dependencies?: Record<string, unknown>; props?: Record<string, unknown> };
  computedSeed?: string;
  tags?: unknown[];
}

export const PageSchema: z.ZodType<Page> = z
  .object({
    id: z.string(),
    title: z.string(),
    emoji: z.string().optional(),
    icon: z.string().optional(),
    createdAt: Timestamp.optional(),
    updatedAt: Timestamp.optional(),
    /** With `format=markdown`. */
    markdown: z.string().optional(),
    /** With `format=document`: the body as ProseMirror JSON. */
    document: z.unknown().optional(),
    /** `document`, `group`, `link` or `computed`. */
    type: z.string(),
    /** `sheet` (a document), `group` or `link`, as the public client of this API family reads a page. */
    kind: z.string().optional(),
    /** Where a `link` page points. */
    href: z.string().optional(),
    /** Where a `link` page points, as a content reference: another page of the space, or a URL. */
    target: z
      .union([z.object({ kind: z.literal('page'), page: z.string() }), z.object({ kind: z.literal('url'), url: z.string() })])
      .optional(),
    urls: z.object({ app: z.string() }),
    slug: z.string(),
    path: z.string(),
    description: z.string().optional(),
    get pages() {
      return z.array(PageSchema);
    },
    git: z.object({ oid: z.string(), path: z.string() }).optional(),
    layout: PageLayoutSchema.optional(),
    cover: z.unknown().optional(),
    variables: z.record(z.string(), z.string()).optional(),
    hidden: z.boolean(),
    noIndex: z.boolean().optional(),
    noRobotsIndex: z.boolean().optional(),
    computed: z
      .object({
        type: z.string(),
        dependencies: z.record(z.string(), z.unknown()).optional(),
        props: z.record(z.string(), z.unknown()).optional(),
      })
      .optional(),
    computedSeed: z.string().optional(),
    /** On document pages: always empty, pages here carry no tags. */
    tags: z.array(z.unknown()).optional(),
  })
  .meta({ id: 'Page' }) as z.ZodType<Page>;

export const RevisionSchema = z
  .object({
    object: z.literal('revision'),
    id: z.string(),
    parents: z.array(z.string()),
    pages: z.array(PageSchema),
    files: z.array(FileSchema),
    reusableContents: z.array(
      z.object({ id: z.string(), title: z.string(), git: z.object({ oid: z.string(), path: z.string() }).optional() }),
    ),
    variables: z.record(z.string(), z.string()),
    /** Pages here carry no tags: always empty, for clients that read it. */
    tags: z.array(z.unknown()),
    createdAt: Timestamp,
    type: z.string(),
    git: z
      .object({ oid: z.string(), message: z.string(), createdByGitBook: z.boolean(), url: z.string(), ref: z.string() })
      .partial()
      .optional(),
    urls: z.object({ app: z.string(), published: z.string().optional(), public: z.string().optional() }),
    /** A revision is an immutable snapshot: whoever reads it may only view it. */
    permissions: z.object({ view: z.boolean() }),
  })
  .meta({ id: 'Revision' });

export const PagesResultSchema = z.object({ pages: z.array(PageSchema) });

/** `metadata=false` leaves out mutable metadata; `computed=false` skips computing content. */
export const ContentQuery = z.object({
  metadata: QueryBoolean.optional(),
  computed: QueryBoolean.optional(),
});

export const FilesQuery = ListQuerySchema.extend(ContentQuery.shape);

export const PAGE_FORMATS = ['markdown', 'document'] as const;

export const PageQuery = ContentQuery.extend({
  format: z.enum(PAGE_FORMATS).optional(),
  /**
   * How markdown writes references to other pages and files: `stable` (default) as
   * `page:<id>` / `file:<id>`, which survive renames and moves; `relative` as relative
   * paths of a git-synced repository (`../guide/install.md`, `.gitbook/assets/logo.png`).
   * `true` and `false` are read as `stable`.
   */
  'format.markdown.refs': z.enum(['relative', 'stable', 'true', 'false']).optional(),
  evaluated: z.enum(['true', 'false', 'deterministic-only']).optional(),
  /** Bodies here hold no references to reusable content, so there is nothing to replace: accepted and read as is. */
  dereferenced: z.enum(['true', 'false', 'reusable-contents']).optional(),
});
export type PageQuery = z.infer<typeof PageQuery>;

/** Where a link is written, or what it points at. */
export const ContentLocationSchema = z
  .object({
    kind: z.enum(['page', 'file', 'anchor', 'url']),
    organization: OrganizationSchema.optional(),
    space: SpaceSchema.optional(),
    versionContext: z.object({ type: z.literal('revision'), revision: z.string() }).optional(),
    page: z.object({ id: z.string(), title: z.string().optional(), path: z.string().optional() }).optional(),
    file: FileSchema.optional(),
    anchor: z.string().optional(),
    url: z.string().optional(),
  })
  .meta({ id: 'ContentLocation' });

export const LinkItemSchema = z
  .object({
    status: z.enum(['ok', 'broken', 'in-app']),
    relation: z.literal('reference'),
    targetReference: ContentLocationSchema,
    locationReferences: z.array(ContentLocationSchema),
  })
  .meta({ id: 'ContentLink' });

export const LinkListSchema = listOf(LinkItemSchema).extend({
  stats: z.object({
    total: z.number().int(),
    broken: z.object({ total: z.number().int(), changeRequest: z.number().int() }),
  }),
});

export const BacklinkItemSchema = z
  .object({
    kind: z.enum(['page']),
    organization: OrganizationSchema,
    space: SpaceSchema,
    versionContext: z.object({ type: z.literal('revision'), revision: z.string() }),
    page: z.object({ id: z.string(), title: z.string(), path: z.string() }),
  })
  .meta({ id: 'Backlink' });

export const BacklinkListSchema = listOf(BacklinkItemSchema);

export const IMPORT_SOURCES = ['website', 'markdown'] as const;

export const ImportBody = z.strictObject({
  url: z
    .string()
    .max(2048)
    .refine((s) => /^https?:\/\//i.test(s) && URL.canParse(s), 'must be an http or https URL'),
  source: z.enum(IMPORT_SOURCES),
});

export const ImportResultSchema = z
  .object({
    revision: z.string(),
    importedResources: z.number().int(),
    totalResources: z.number().int(),
    /** Extension: what the source holds that the import kept only as written or could not read. */
    unmapped: z
      .array(
        z.object({
          page: z.string().meta({ description: 'The markdown file, as a path in the imported folder' }),
          line: z.number().int().meta({ description: '1-based; 0 for the whole file' }),
          source: z.string(),
          reason: z.string(),
        }),
      )
      .optional(),
  })
  .meta({ id: 'ImportResult' });

export const TemplateBody = z.strictObject({
  id: text(64, 1),
  /** Fill this change request's branch instead of the main content. */
  changeRequestId: text(64, 1).optional(),
  params: z.strictObject({ contentRefs: z.record(z.string().max(64), ContentRefSchema).optional() }).optional(),
});
