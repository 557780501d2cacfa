import type { Context } from 'hono';
import { describe, expect, it } from 'vitest';
import { type PlainCall, answerFor, keepable, plainToolCall } from './keptAnswers';

/**
 * Which MCP tool calls may be answered from a kept answer, and what of an answer may be
 * kept. A kept answer is found by the tool's name and its arguments: two calls that ask
 * different things must never share a key, or one caller's question would get the answer
 * to another; anything but the plainest `tools/call` goes to the SDK; and only a tool's
 * successful result is kept, the id of each new request spliced in.
 */
const TOOLS = new Set(['read_page', 'search']);
const HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
const ctx = (headers: Record<string, string | undefined> = HEADERS, method = 'POST') =>
  ({ req: { method, header: (name: string) => headers[name] } }) as unknown as Context;
const call = (id: unknown, name: string, args?: unknown, extra: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, ...(args === undefined ? {} : { arguments: args }) },
  ...extra,
});

describe('a plain tool call', () => {
  it('is one tools/call request to a kept tool, with its id and a key naming the tool and its arguments', () => {
    expect(plainToolCall(ctx(), call(7, 'read_page', { pageId: 'p1' }), TOOLS)).toEqual({
      id: 7,
      name: 'read_page',
      key: 'read_page\n{"pageId":"p1"}',
    });
    expect(plainToolCall(ctx(), call('a-1', 'search'), TOOLS)).toEqual({ id: 'a-1', name: 'search', key: 'search\n{}' });
  });

  it('makes the same key for the same arguments in any order, and different keys for anything different', () => {
    const key = (name: string, args: unknown) => plainToolCall(ctx(), call(1, name, args), TOOLS)?.key;
    expect(key('search', { query: 'a', limit: 5, filter: { b: 1, a: [1, { y: 2, x: 1 }] } })).toBe(
      key('search', { filter: { a: [1, { x: 1, y: 2 }], b: 1 }, limit: 5, query: 'a' }),
    );
    const keys = [
      key('search', { query: 'a' }),
      key('search', { query: 'b' }),
      key('search', { query: 'a', limit: 1 }),
      key('search', { query: ['a'] }),
      key('search', { query: ['a', 'b'] }),
      key('search', { query: ['b', 'a'] }),
      key('search', { query: [1, 2] }),
      key('search', { query: [12] }),
      key('search', { query: [[1], 2] }),
      key('search', { query: [[1, 2]] }),
      key('search', { query: { a: 1 } }),
      key('search', { query: 1 }),
      key('search', { query: '1' }),
      key('search', { query: null }),
      key('search', { 'query"': 'a' }),
      key('search', { q: 'a,"b":1' }),
      key('search', { q: 'a', b: 1 }),
      key('read_page', { query: 'a' }),
      key('search', {}),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('leaves to the SDK anything else: other methods, versions, ids, tools, extra fields or doubtful headers', () => {
    const refused: [unknown, Record<string, string | undefined>?, string?][] = [
      [call(1, 'unknown_tool')],
      [call(1, 'search', ['not', 'an', 'object'])],
      [call(1, 'search', 'text')],
      [call(1.5, 'search')],
      [call(2 ** 53, 'search')],
      [call(null, 'search')],
      [call(undefined, 'search')],
      [call({ a: 1 }, 'search')],
      [call(1, 'search', {}, { _meta: {} })],
      [{ ...call(1, 'search'), params: { name: 'search', _meta: { progressToken: 1 } } }],
      [{ ...call(1, 'search'), params: null }],
      [{ ...call(1, 'search'), params: [] }],
      [{ ...call(1, 'search'), params: { name: 5 } }],
      [{ ...call(1, 'search'), jsonrpc: '1.0' }],
      [{ ...call(1, 'search'), method: 'tools/list' }],
      [[call(1, 'search')]],
      ['{"jsonrpc":"2.0"}'],
      [null],
      [call(1, 'search'), { ...HEADERS, accept: 'application/json' }],
      [call(1, 'search'), { ...HEADERS, accept: 'text/event-stream' }],
      [call(1, 'search'), { ...HEADERS, accept: undefined }],
      [call(1, 'search'), { ...HEADERS, 'content-type': 'text/plain' }],
      [call(1, 'search'), { ...HEADERS, 'content-type': undefined }],
      [call(1, 'search'), { ...HEADERS, 'mcp-protocol-version': '1999-01-01' }],
      [call(1, 'search'), HEADERS, 'GET'],
    ];
    for (const [body, headers, method] of refused) {
      expect(plainToolCall(ctx(headers, method), body, TOOLS), JSON.stringify([body, headers, method])).toBeUndefined();
    }
  });

  it('accepts the headers the transport accepts: a charset, any case, a supported protocol version', () => {
    for (const headers of [
      { ...HEADERS, 'content-type': 'Application/JSON; charset=utf-8' },
      { ...HEADERS, 'mcp-protocol-version': '2025-06-18' },
      { ...HEADERS, accept: 'text/event-stream, application/json' },
    ]) {
      expect(plainToolCall(ctx(headers), call(1, 'search'), TOOLS), JSON.stringify(headers)).toBeDefined();
    }
  });
});

describe('keeping an answer', () => {
  const plain: PlainCall = { id: 7, name: 'search', key: 'search\n{}' };
  const headers = new Headers({ 'content-type': 'application/json', 'x-quire': '1' });
  const answer = (result: unknown, id: unknown = 7) => JSON.stringify({ result, jsonrpc: '2.0', id });

  it('keeps a successful result up to its id, and answers another request with that request’s id', () => {
    const body = answer({ content: [{ type: 'text', text: 'found' }] });
    const kept = keepable(plain, 200, headers, body);
    expect(kept).toBeDefined();
    expect(Buffer.from(kept!.head).toString()).toBe('{"result":{"content":[{"type":"text","text":"found"}]},"jsonrpc":"2.0"');
    expect(kept!.headers).toEqual([
      ['content-type', 'application/json'],
      ['x-quire', '1'],
    ]);
    expect(Buffer.from(answerFor(kept!, 'next')).toString()).toBe(answer({ content: [{ type: 'text', text: 'found' }] }, 'next'));
    expect(JSON.parse(Buffer.from(answerFor(kept!, 8)).toString())).toEqual({
      result: { content: [{ type: 'text', text: 'found' }] },
      jsonrpc: '2.0',
      id: 8,
    });
  });

  it('keeps no tool error, protocol error, other status, other id or other shape', () => {
    for (const [status, body] of [
      [200, answer({ content: [], isError: true })],
      [200, JSON.stringify({ jsonrpc: '2.0', id: 7, error: { code: -32602, message: 'bad' } })],
      [200, JSON.stringify({ error: { code: -32602 }, jsonrpc: '2.0', id: 7 })],
      [500, answer({ content: [] })],
      [202, answer({ content: [] })],
      [200, answer({ content: [] }, 8)],
      [200, answer({ content: [] }, '7')],
      [200, JSON.stringify({ result: { content: [] }, id: 7 })],
      [200, JSON.stringify({ result: { content: [] }, other: 1, id: 7 })],
      [200, JSON.stringify({ result: null, jsonrpc: '2.0', id: 7 })],
      [200, ''],
      [200, null],
    ] as const) {
      expect(keepable(plain, status, headers, body), `${status} ${body}`).toBeUndefined();
    }
  });
});
