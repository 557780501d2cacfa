import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { readRequestBody, requestBodyTooLargeMessage } from '@modelcontextprotocol/sdk/server/requestBody.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type ReadResourceResult,
  type Resource,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { DomainError } from '@quire/shared/domainErrors';
import type { Context } from 'hono';
import { z } from 'zod';
import type { Logger } from '../logger';
import { describeIssue } from '../web/issues';
import { answerFor, keepable, plainToolCall, type ToolAnswers } from './keptAnswers';

/**
 * The Model Context Protocol over Streamable HTTP, stateless: every POST is answered on
 * its own by a server made for that request, which knows the caller (an API token's user,
 * or a site's visitor). Tools are described once by zod schemas; arguments are checked
 * with them here, so a bad argument is a tool error worded like a /v1 400, and every
 * refusal a tool throws (a domain error) comes back as a tool error carrying its message.
 */

export interface McpTool<Ctx> {
  name: string;
  title: string;
  description: string;
  input: z.ZodType<Record<string, unknown>>;
  /**
   * Arguments parsed as text, as a URL carries them: the /v1 query schemas read `limit`
   * or `metadata` from strings, while MCP clients send the numbers and booleans their
   * JSON Schema asks for.
   */
  textFields?: readonly string[];
  /** Changes nothing (the `readOnlyHint` clients show). */
  readOnly: boolean;
  /**
   * Its answer may be given again from kept bytes while what it was computed from is
   * unchanged (see keptAnswers): the endpoint's answer store decides what that is.
   */
  kept?: boolean;
  run(ctx: Ctx, args: Record<string, unknown>): Promise<unknown>;
}

/** Declares a tool with its arguments typed by its schema. */
export function tool<Ctx, S extends z.ZodType<Record<string, unknown>>>(
  def: Omit<McpTool<Ctx>, 'run' | 'input'> & { input: S; run(ctx: Ctx, args: z.output<S>): Promise<unknown> },
): McpTool<Ctx> {
  return def as unknown as McpTool<Ctx>;
}

export interface McpResources<Ctx> {
  list(ctx: Ctx): Promise<Resource[]>;
  /** The resource's contents, or undefined when `uri` names nothing this caller may read. */
  read(ctx: Ctx, uri: string): Promise<ReadResourceResult | undefined>;
}

export interface McpEndpoint<Ctx> {
  name: string;
  instructions: (ctx: Ctx) => string;
  tools: McpTool<Ctx>[];
  resources?: McpResources<Ctx>;
}

const VERSION = '1.0.0';
/**
 * Shared by every per-request server: each one would otherwise build its own Ajv, which
 * cost more than the rest of a tool call together (profiled). Our tools validate with zod;
 * the SDK keeps Ajv for schemas a client sends back (elicitation), which these servers never ask for.
 */
const jsonSchemaValidator = new AjvJsonSchemaValidator();
const listings = new WeakMap<McpEndpoint<never>, Tool[]>();
const keptTools = new WeakMap<McpEndpoint<never>, ReadonlySet<string>>();

/** The tools whose answers may be kept: read-only ones that say so. */
function keptToolNames<Ctx>(endpoint: McpEndpoint<Ctx>): ReadonlySet<string> {
  let names = keptTools.get(endpoint as McpEndpoint<never>);
  if (!names) {
    names = new Set(endpoint.tools.filter((t) => t.kept && t.readOnly).map((t) => t.name));
    keptTools.set(endpoint as McpEndpoint<never>, names);
  }
  return names;
}

/** The tool list, computed once per endpoint: JSON Schema of what each tool accepts. */
function toolList<Ctx>(endpoint: McpEndpoint<Ctx>): Tool[] {
  let list = listings.get(endpoint as McpEndpoint<never>);
  if (!list) {
    list = endpoint.tools.map((t) => {
      const { $schema: _, ...schema } = z.toJSONSchema(t.input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
      return {
        name: t.name,
        title: t.title,
        description: t.description,
        inputSchema: { ...schema, type: 'object' } as Tool['inputSchema'],
        annotations: { title: t.title, readOnlyHint: t.readOnly, destructiveHint: false, openWorldHint: false },
      };
    });
    listings.set(endpoint as McpEndpoint<never>, list);
  }
  return list;
}

function toolError(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: message }] };
}

function toolResult(value: unknown): CallToolResult {
  if (typeof value === 'string') return { content: [{ type: 'text', text: value }] };
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }], structuredContent: value as Record<string, unknown> };
}

/** Scalars of `fields` written as text, as they would arrive in a query string. */
function asText(args: Record<string, unknown>, fields: readonly string[] | undefined): Record<string, unknown> {
  if (!fields) return args;
  const out = { ...args };
  for (const f of fields) {
    const v = out[f];
    if (typeof v === 'number' || typeof v === 'boolean') out[f] = String(v);
  }
  return out;
}

async function callTool<Ctx>(endpoint: McpEndpoint<Ctx>, ctx: Ctx, name: string, raw: unknown, log: Logger): Promise<CallToolResult> {
  const t = endpoint.tools.find((x) => x.name === name);
  if (!t) return toolError(`No tool named "${name}".`);
  const given = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const parsed = t.input.safeParse(asText(given, t.textFields));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return toolError(issue ? describeIssue('argument', issue, given) : 'Invalid arguments.');
  }
  try {
    return toolResult(await t.run(ctx, parsed.data));
  } catch (err) {
    if (err instanceof DomainError) return toolError(err.message);
    log.error({ err, tool: name }, 'MCP tool failed');
    return toolError('Internal error; it has been logged.');
  }
}

function protocolServer<Ctx>(endpoint: McpEndpoint<Ctx>, ctx: Ctx, log: Logger): Server {
  const server = new Server(
    { name: endpoint.name, version: VERSION },
    {
      capabilities: { tools: { listChanged: false }, ...(endpoint.resources ? { resources: { listChanged: false } } : {}) },
      instructions: endpoint.instructions(ctx),
      jsonSchemaValidator,
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: toolList(endpoint) }));
  server.setRequestHandler(CallToolRequestSchema, (req) => callTool(endpoint, ctx, req.params.name, req.params.arguments, log));
  const resources = endpoint.resources;
  if (resources) {
    server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: await resources.list(ctx) }));
    server.setRequestHandler(ReadResourceRequestSchema, async (req) => {
      const found = await resources.read(ctx, req.params.uri);
      // -32002 is the code the specification gives an unknown resource.
      if (!found) throw new McpError(-32002 as ErrorCode, `No resource at ${req.params.uri}.`);
      return found;
    });
  }
  return server;
}

/** A JSON-RPC error without an id, as the transport answers a request it cannot take. */
function jsonRpcError(c: Context, status: 400 | 413, code: number, message: string): Response {
  return c.json({ jsonrpc: '2.0', error: { code, message }, id: null }, status);
}

/** The parsed body; null when it is no JSON, which the transport answers as a parse error (-32700). */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * Answers one HTTP request to an MCP endpoint. Only POST carries messages: in stateless
 * mode there is no stream to resume (GET) and no session to end (DELETE).
 */
export async function answerMcp<Ctx>(
  c: Context,
  endpoint: McpEndpoint<Ctx>,
  ctx: Ctx,
  opts: { log: Logger; parsedBody?: unknown; maxBodyBytes: number; answers?: ToolAnswers },
): Promise<Response> {
  if (c.req.method !== 'POST') {
    c.header('Allow', 'POST');
    return c.json({ error: { code: 405, message: 'This MCP endpoint is stateless: send JSON-RPC messages with POST.' } }, 405);
  }
  let parsedBody = opts.parsedBody;
  if (parsedBody === undefined && !c.req.raw.bodyUsed) {
    // A body the endpoint did not read (chunked, or without a declared length) is read here,
    // within the same limit, so that no batch reaches the transport unseen.
    const read = await readRequestBody(c.req.raw, opts.maxBodyBytes);
    if (read.tooLarge) return jsonRpcError(c, 413, -32000, requestBodyTooLargeMessage(opts.maxBodyBytes));
    parsedBody = parseJson(read.text);
  }
  // One request, one message. The protocol has no batches since its 2025-06-18 revision, and a
  // batch would have one request (counted once by the rate limits) start a hundred calls.
  if (Array.isArray(parsedBody)) {
    return jsonRpcError(c, 400, -32600, 'Invalid Request: JSON-RPC batches are not accepted; send one message per request.');
  }
  const call = opts.answers && plainToolCall(c, parsedBody, keptToolNames(endpoint));
  if (call) {
    const hit = opts.answers?.get(call.key);
    if (hit) {
      for (const [name, value] of hit.headers) c.header(name, value);
      return c.body(answerFor(hit, call.id) as Uint8Array<ArrayBuffer>, 200);
    }
  }
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: opts.maxBodyBytes,
  });
  await protocolServer(endpoint, ctx, opts.log).connect(transport);
  // Not closed afterwards: with JSON answers and no session nothing outlives the request (no
  // stream, no timer), and closing would abort handlers whose answer is already written,
  // building an abort error for each (a quarter of a tool call's time, profiled).
  const res = await transport.handleRequest(c.req.raw, parsedBody === undefined ? undefined : { parsedBody });
  // Answered through Hono, not as the transport's Response: Hono would copy that Response to add
  // the headers set before (rate limits), turning its body into a stream the Node adapter then
  // pipes (profiled: more than half of a tool call's cost).
  const body = res.body ? await res.text() : null;
  res.headers.forEach((value, name) => c.header(name, value));
  const kept = call && keepable(call, res.status, res.headers, body);
  if (call && kept) opts.answers?.keep(call.key, kept);
  return c.body(body as string, res.status as 200);
}
