import { FetchError, guardedFetch } from '../core/security/fetchGuard';
import { flatten, type SiteRequest } from './context';
import { loadSpec } from './openapiPages';
import { specServers } from './render/apiContext';

/**
 * The "try it" console's proxy, for APIs that do not answer browsers of other origins
 * (CORS): a spec that sets `x-enable-proxy: true` lets readers send its operations through
 * the site. Only to the servers of such a spec published on this site, through the fetch
 * guard (no private addresses unless the server allows them), with the headers the reader
 * wrote and nothing of the reader's own (no cookies).
 */
export const API_PROXY_PATH = '/~api-proxy';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];
/** Headers never forwarded: the connection's own, and the site's cookies. */
const DROPPED = new Set(['host', 'cookie', 'connection', 'content-length', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'keep-alive']);

export type ProxyResult =
  | { kind: 'ok'; status: number; body: Buffer; contentType?: string }
  | { kind: 'invalid'; message: string }
  | { kind: 'refused'; message: string }
  | { kind: 'failed'; message: string };

export async function proxyApiCall(req: SiteRequest, input: unknown, allowPrivate: boolean): Promise<ProxyResult> {
  const i = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  if (typeof i.url !== 'string') return { kind: 'invalid', message: 'url: required' };
  const method = typeof i.method === 'string' ? i.method.toUpperCase() : '';
  if (!METHODS.includes(method)) return { kind: 'invalid', message: 'method: one of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS' };
  if (i.body !== undefined && i.body !== null && typeof i.body !== 'string') return { kind: 'invalid', message: 'body: a string' };
  let target: URL;
  try {
    target = new URL(i.url);
  } catch {
    return { kind: 'invalid', message: 'url: not a URL' };
  }
  const servers = await proxiedServers(req);
  if (!servers.some((base) => isBelow(target, base)))
    return { kind: 'refused', message: 'This address is not a server of an API reference of this site that allows calls through it.' };
  const headers: Record<string, string> = {};
  if (typeof i.headers === 'object' && i.headers !== null)
    for (const [k, v] of Object.entries(i.headers as Record<string, unknown>))
      if (typeof v === 'string' && /^[!#$%&'*+.^_`|~0-9a-z-]+$/i.test(k) && !DROPPED.has(k.toLowerCase())) headers[k] = v;
  try {
    const res = await guardedFetch(target.href, {
      allowPrivate,
      timeoutMs: 15_000,
      maxBytes: 2_000_000,
      send: { method, body: method === 'GET' || method === 'HEAD' ? undefined : ((i.body as string | undefined) ?? undefined), headers },
    });
    const type = res.headers['content-type'];
    return { kind: 'ok', status: res.status, body: res.body, contentType: typeof type === 'string' ? type : undefined };
  } catch (err) {
    return { kind: 'failed', message: err instanceof FetchError ? err.message : 'The call failed.' };
  }
}

/** Servers of the specs that allow the proxy, among the API references the visitor may read on this site. */
async function proxiedServers(req: SiteRequest): Promise<string[]> {
  const out = new Set<string>();
  const seen = new Set<string>();
  for (const section of req.view.sections)
    for (const variant of section.variants) {
      const pages = flatten((await req.snapshot(variant)).pages);
      for (const p of pages) {
        if (!p.openapiSpec || p.api?.kind !== 'overview' || p.hidden || seen.has(p.openapiSpec)) continue;
        seen.add(p.openapiSpec);
        const spec = await loadSpec(req.db, req.site.org_id, { spec: p.openapiSpec });
        if (spec.kind === 'ready' && spec.document['x-enable-proxy'] === true) for (const s of specServers(spec.document)) out.add(s);
      }
    }
  return [...out];
}

function isBelow(target: URL, base: string): boolean {
  let b: URL;
  try {
    b = new URL(base);
  } catch {
    return false;
  }
  if (target.origin !== b.origin || target.username || target.password) return false;
  const prefix = b.pathname.replace(/\/$/, '');
  return target.pathname === prefix || target.pathname.startsWith(`${prefix}/`) || prefix === '';
}
