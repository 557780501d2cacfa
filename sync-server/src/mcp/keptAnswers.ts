import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { Context } from 'hono';

/**
 * Kept answers of read-only tool calls. A tool call the SDK answered once is answered again
 * from the bytes of that answer, with the new request's id spliced in, as long as the rows
 * it was computed from have not changed: a page read costs no more than the same read over
 * REST, where the SDK's handling of each message (its transport per request, a dozen zod
 * checks of the message) cost more than the read itself (profiled). Only the plainest
 * message takes this path: one `tools/call` request, nothing else in it, sent with the
 * headers the transport requires. Anything else (a notification, `_meta`, an unsupported
 * protocol version, a malformed message) goes to the SDK, which answers it as before; a batch
 * is refused before either (see `answerMcp`).
 */

/** The bytes of an answer up to its id: `{"result":…,"jsonrpc":"2.0"`; the id and `}` follow. */
export interface KeptAnswer {
  headers: [string, string][];
  head: Uint8Array;
}

/** Where an endpoint keeps answers, for its caller: keys name the tool and its arguments. */
export interface ToolAnswers {
  get(key: string): KeptAnswer | undefined;
  /** Keeps an answer the SDK just gave, when what it was computed from is known. */
  keep(key: string, answer: KeptAnswer): void;
}

/** A plain tool call: its id and the key of its answer. */
export interface PlainCall {
  id: string | number;
  name: string;
  key: string;
}

const MESSAGE_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);
const PARAM_KEYS = new Set(['name', 'arguments']);

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** JSON with object keys sorted, so that the same arguments make the same key in any order. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isRecord(v)) {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

/** The headers the transport checks, as it would accept them (anything doubtful goes to it). */
function plainHeaders(c: Context): boolean {
  const accept = c.req.header('accept') ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return false;
  const type = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') return false;
  const version = c.req.header('mcp-protocol-version');
  return version === undefined || SUPPORTED_PROTOCOL_VERSIONS.includes(version);
}

/**
 * The call a POST body makes when it is one plain `tools/call` request to one of `tools`;
 * undefined for anything the SDK must see.
 */
export function plainToolCall(c: Context, body: unknown, tools: ReadonlySet<string>): PlainCall | undefined {
  if (c.req.method !== 'POST' || !isRecord(body) || body.jsonrpc !== '2.0' || body.method !== 'tools/call') return undefined;
  const { id, params } = body;
  if (!(typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)))) return undefined;
  if (!isRecord(params) || typeof params.name !== 'string' || !tools.has(params.name)) return undefined;
  if (params.arguments !== undefined && !isRecord(params.arguments)) return undefined;
  for (const k of Object.keys(body)) if (!MESSAGE_KEYS.has(k)) return undefined;
  for (const k of Object.keys(params)) if (!PARAM_KEYS.has(k)) return undefined;
  if (!plainHeaders(c)) return undefined;
  return { id, name: params.name, key: `${params.name}\n${canonical(params.arguments ?? {})}` };
}

function idTail(id: string | number): string {
  return `,"id":${JSON.stringify(id)}}`;
}

/** The answer to `id` from kept bytes: those of the first answer, but for the id. */
export function answerFor(kept: KeptAnswer, id: string | number): Uint8Array {
  return Buffer.concat([kept.head, Buffer.from(idTail(id))]);
}

/**
 * What may be kept of the SDK's answer to `call`: a successful tool result (never a tool
 * error, nor a protocol error), as the SDK wrote it.
 */
export function keepable(call: PlainCall, status: number, headers: Headers, body: string | null): KeptAnswer | undefined {
  if (status !== 200 || !body || !body.startsWith('{"result":')) return undefined;
  const tail = idTail(call.id);
  if (!body.endsWith(tail)) return undefined;
  const head = body.slice(0, -tail.length);
  if (!head.endsWith(',"jsonrpc":"2.0"')) return undefined;
  const message = JSON.parse(body) as { result?: { isError?: boolean } };
  if (!message.result || message.result.isError) return undefined;
  const kept: [string, string][] = [];
  headers.forEach((value, name) => kept.push([name, value]));
  return { headers: kept, head: Buffer.from(head) };
}
