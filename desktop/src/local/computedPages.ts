import { markdownToBody } from '@quire/shared/content/markdown/parse';
import type { ComputedPageView } from '../common/ipc';
import { RemoteError, type ServerClient, UnreachableError } from './ServerClient';
import type { ChangeRequestRow } from './store/changeRequests';
import type { SpaceRow } from './store/catalog';

/**
 * What a computed page (`builtin:openapi`) shows. The page's Y.Doc holds only its
 * definition; the operations come from an OpenAPI spec of the organization, which lives on
 * the server, so the server renders them (the same markdown as its page reads and
 * published sites) and the window shows the result read-only.
 */
export async function fetchComputedPage(
  client: ServerClient | undefined,
  space: SpaceRow,
  cr: ChangeRequestRow | undefined,
  pageId: string,
): Promise<ComputedPageView> {
  const branch = !space.remoteId
    ? undefined
    : !cr
      ? `/v1/spaces/${space.remoteId}`
      : cr.remoteId
        ? `/v1/spaces/${space.remoteId}/change-requests/${cr.remoteId}`
        : undefined;
  if (!branch) return { document: null, reason: 'This page is computed by the server: publish the space to see what it shows.' };
  if (!client) return { document: null, reason: 'This page is computed by the server: connect to see what it shows.' };
  try {
    const page = await client.request<{ markdown?: string }>('GET', `${branch}/content/page/${encodeURIComponent(pageId)}?format=markdown`);
    return { document: { ...markdownToBody(page.markdown ?? '').doc }, reason: null };
  } catch (err) {
    if (err instanceof UnreachableError)
      return { document: null, reason: 'The server cannot be reached: this computed page shows once it can.' };
    if (err instanceof RemoteError && err.status === 404) return { document: null, reason: 'The server does not have this page yet.' };
    throw err;
  }
}

/**
 * A link to the PDF of a branch (or of one page and those under it). PDFs are made by
 * the server, from what it holds: a space that was never published, or a machine that is
 * not connected, gets the reason instead.
 */
export async function fetchPdfLink(
  client: ServerClient | undefined,
  space: SpaceRow,
  cr: ChangeRequestRow | undefined,
  pageId: string | undefined,
): Promise<{ url: string | null; reason: string | null }> {
  const branch = !space.remoteId
    ? undefined
    : !cr
      ? `/v1/spaces/${space.remoteId}`
      : cr.remoteId
        ? `/v1/spaces/${space.remoteId}/change-requests/${cr.remoteId}`
        : undefined;
  if (!branch) return { url: null, reason: 'PDFs are made by the server: publish the space first.' };
  if (!client) return { url: null, reason: 'PDFs are made by the server: connect to one first.' };
  try {
    const query = pageId ? `?page=${encodeURIComponent(pageId)}` : '';
    const { url } = await client.request<{ url: string }>('GET', `${branch}/pdf${query}`);
    return { url, reason: null };
  } catch (err) {
    if (err instanceof UnreachableError) return { url: null, reason: 'The server cannot be reached: try again once it can.' };
    if (err instanceof RemoteError && err.status === 404) return { url: null, reason: 'The server does not have this page yet.' };
    throw err;
  }
}
