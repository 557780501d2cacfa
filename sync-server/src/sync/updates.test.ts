import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { ProtocolError, decodeMessage, encodeUpdate } from './protocol';
import { wouldChange } from './updates';

function pair() {
  const server = new Y.Doc();
  const client = new Y.Doc();
  client.getText('t').insert(0, 'hello world');
  client.getText('t').delete(0, 6);
  Y.applyUpdate(server, Y.encodeStateAsUpdate(client));
  return { server, client };
}

describe('wouldChange', () => {
  it("sees nothing new in a reconnecting reader's sync step 2 (its whole delete set, no new content)", () => {
    const { server, client } = pair();
    const step2 = Y.encodeStateAsUpdate(client, Y.encodeStateVector(server));
    expect(Y.decodeUpdate(step2).ds.clients.size).toBeGreaterThan(0);
    expect(wouldChange(server, step2)).toBe(false);
  });

  it('sees new content and new deletions', () => {
    const { server, client } = pair();
    const sv = Y.encodeStateVector(server);
    client.getText('t').insert(0, '!');
    expect(wouldChange(server, Y.encodeStateAsUpdate(client, sv))).toBe(true);
    const { server: s2, client: c2 } = pair();
    c2.getText('t').delete(0, 1);
    expect(wouldChange(s2, Y.encodeStateAsUpdate(c2, Y.encodeStateVector(s2)))).toBe(true);
  });

  it('throws on bytes that are not an update', () => {
    expect(() => wouldChange(new Y.Doc(), new Uint8Array([1, 200, 3]))).toThrow();
  });
});

describe('decodeMessage', () => {
  it('decodes an update into a buffer of its own', () => {
    const update = Y.encodeStateAsUpdate(pair().client);
    const msg = decodeMessage(encodeUpdate(update));
    expect(msg).toMatchObject({ type: 'update', step2: false });
    expect(msg.type === 'update' && msg.update.buffer.byteLength).toBe(update.byteLength);
  });

  it('refuses unknown types, unknown sync steps and truncated payloads', () => {
    expect(() => decodeMessage(new Uint8Array([9]))).toThrow(ProtocolError);
    expect(() => decodeMessage(new Uint8Array([0, 5, 0]))).toThrow(ProtocolError);
    expect(() => decodeMessage(new Uint8Array([0, 2, 40, 1, 2]))).toThrow(ProtocolError);
    expect(() => decodeMessage(new Uint8Array([]))).toThrow(ProtocolError);
  });
});
