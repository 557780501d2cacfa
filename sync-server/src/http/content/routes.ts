import { ErrorBodySchema, IdSchema, ListQuerySchema, listOf } from '@quire/shared';
import { ChangeRequestPdfQuery, PdfUrlSchema } from '@quire/shared/schemas/changeRequest';
import {
  BacklinkListSchema,
  ContentQuery,
  FileSchema,
  FileUploadHeaders,
  FileUploadQuery,
  FilesQuery,
  ImportBody,
  ImportResultSchema,
  LinkListSchema,
  PageQuery,
  PageSchema,
  PagesResultSchema,
  RevisionSchema,
  TemplateBody,
  UploadFileIdSchema,
} from '@quire/shared/schemas/content';
import { z } from 'zod';
import { apiRoute, body, json } from '../openapi';
import { SpaceParams } from '../params';
import { ChangeRequestParams } from '../changeRequests/routes';

const ExportQuery = z.object({
  format: z
    .enum(['markdown'])
    .default('markdown')
    .meta({ description: 'The layout of the export: a git sync folder of GitBook-flavoured markdown (the only one, and the default)' }),
  archive: z.enum(['zip', 'tar.gz']).default('zip').meta({ description: 'How the folder is packed' }),
});

const tags = ['Space content'];
const crTags = ['Change request content'];

const S = '/v1/spaces/{spaceId}';
const CR = '/v1/spaces/{spaceId}/change-requests/{changeRequestId}';

const FileParams = SpaceParams.extend({ fileId: IdSchema });
const PageParams = SpaceParams.extend({ pageId: IdSchema });
const CrFileParams = ChangeRequestParams.extend({ fileId: IdSchema });
const CrPageParams = ChangeRequestParams.extend({ pageId: IdSchema });
const UploadParams = SpaceParams.extend({ fileId: UploadFileIdSchema });
const CrUploadParams = ChangeRequestParams.extend({ fileId: UploadFileIdSchema });

const fetchErrors = {
  409: json(ErrorBodySchema, 'The space is locked'),
  422: json(ErrorBodySchema, 'The fetched content could not be imported'),
  502: json(ErrorBodySchema, 'The URL could not be fetched'),
} as const;

/** Both branches (a space's main content, a change request's) answer the same reads. */
function contentRoutes(prefix: string, params: typeof SpaceParams | typeof ChangeRequestParams, t: string[], what: string) {
  const fileParams = prefix === S ? FileParams : CrFileParams;
  const pageParams = prefix === S ? PageParams : CrPageParams;
  return {
    getContent: apiRoute({
      method: 'get',
      path: `${prefix}/content`,
      tags: t,
      summary: `Current revision of ${what}`,
      request: { params, query: ContentQuery },
      responses: { 200: json(RevisionSchema) },
    }),
    listPages: apiRoute({
      method: 'get',
      path: `${prefix}/content/pages`,
      tags: t,
      summary: `Page tree of ${what}`,
      request: { params, query: ContentQuery },
      responses: { 200: json(PagesResultSchema) },
    }),
    listFiles: apiRoute({
      method: 'get',
      path: `${prefix}/content/files`,
      tags: t,
      summary: `Files of ${what}`,
      request: { params, query: FilesQuery },
      responses: { 200: json(listOf(FileSchema)) },
    }),
    getFile: apiRoute({
      method: 'get',
      path: `${prefix}/content/files/{fileId}`,
      tags: t,
      summary: `A file of ${what}`,
      request: { params: fileParams, query: ContentQuery },
      responses: { 200: json(FileSchema) },
    }),
    fileBacklinks: apiRoute({
      method: 'get',
      path: `${prefix}/content/files/{fileId}/backlinks`,
      tags: t,
      summary: 'Pages that reference a file',
      request: { params: fileParams, query: ListQuerySchema },
      responses: { 200: json(BacklinkListSchema) },
    }),
    getPage: apiRoute({
      method: 'get',
      path: `${prefix}/content/page/{pageId}`,
      tags: t,
      summary: `A page of ${what}, with its body`,
      request: { params: pageParams, query: PageQuery },
      responses: { 200: json(PageSchema) },
    }),
    pageLinks: apiRoute({
      method: 'get',
      path: `${prefix}/content/page/{pageId}/links`,
      tags: t,
      summary: 'Links written in a page, with their status',
      request: { params: pageParams, query: ListQuerySchema },
      responses: { 200: json(LinkListSchema) },
    }),
    exportContent: apiRoute({
      method: 'get',
      path: `${prefix}/content/export`,
      tags: t,
      summary: `Export ${what} as a folder of markdown`,
      description:
        'An extension beside the specification: the folder the markdown import reads (`SUMMARY.md`, one `.md` file per page, `README.md` for pages with children, `.gitbook/assets/`, `.gitbook/includes/`), as a `.zip` or `.tar.gz`. Importing it gives the same pages, titles, slugs, blocks, links and file bytes.',
      'x-quire-extension': true,
      request: { params, query: ExportQuery },
      responses: {
        200: {
          description: 'The archive',
          content: {
            'application/zip': { schema: { type: 'string', format: 'binary' } },
            'application/gzip': { schema: { type: 'string', format: 'binary' } },
          },
        },
      },
    }),
    uploadFile: apiRoute({
      method: 'put',
      path: `${prefix}/content/files/{fileId}`,
      tags: t,
      summary: `Upload a file of ${what}`,
      description:
        "An extension beside the specification: the request body is the file's bytes, sent with the file's own `Content-Type`. The client chooses the id (a new random id), so a file can be referenced (`file:<fileId>`) before it is uploaded; sending the same bytes again under the same id answers 200 and changes nothing, other bytes under a taken id are 409. The branch lists the file once its `files` map records it (editors write that record with the content that uses the file). Editors only; the largest file is `MAX_FILE_BYTES` (413 above it).",
      'x-quire-extension': true,
      request: {
        params: prefix === S ? UploadParams : CrUploadParams,
        query: FileUploadQuery,
        headers: FileUploadHeaders,
        body: {
          content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
          required: true,
          description: "The file's bytes (any media type: the one in Content-Type is stored)",
        },
      },
      responses: {
        200: json(FileSchema, 'These bytes were already stored under this id'),
        201: json(FileSchema, 'Stored'),
        409: json(ErrorBodySchema, 'The id already holds other bytes, or the branch cannot change'),
        413: json(ErrorBodySchema, 'The file is larger than MAX_FILE_BYTES'),
      },
    }),
    importContent: apiRoute({
      method: 'post',
      path: `${prefix}/content/import`,
      tags: t,
      summary: `Import a website or markdown into ${what}`,
      request: { params, body: body(ImportBody) },
      responses: { 201: json(ImportResultSchema), ...fetchErrors },
    }),
  };
}

export const space = {
  ...contentRoutes(S, SpaceParams, tags, 'the space'),
  pageBacklinks: apiRoute({
    method: 'get',
    path: `${S}/content/page/{pageId}/backlinks`,
    tags,
    summary: 'Pages that link to a page',
    request: { params: PageParams, query: ListQuerySchema },
    responses: { 200: json(BacklinkListSchema) },
  }),
  spaceLinks: apiRoute({
    method: 'get',
    path: `${S}/links`,
    tags: ['Spaces'],
    summary: 'Every link written in the space, with its status',
    request: { params: SpaceParams, query: ListQuerySchema },
    responses: { 200: json(LinkListSchema) },
  }),
  spacePdf: apiRoute({
    method: 'get',
    path: `${S}/pdf`,
    tags,
    summary: 'A URL serving the space content (or one page, or a page and those under it) as PDF',
    request: { params: SpaceParams, query: ChangeRequestPdfQuery },
    responses: { 200: json(PdfUrlSchema) },
  }),
  applyTemplate: apiRoute({
    method: 'post',
    path: `${S}/content/template`,
    tags,
    summary: 'Add the pages of a built-in template',
    request: { params: SpaceParams, body: body(TemplateBody) },
    responses: { 204: { description: 'Applied' }, 409: json(ErrorBodySchema, 'The space is locked') },
  }),
};

export const changeRequest = contentRoutes(CR, ChangeRequestParams, crTags, 'the change request');
