import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { ProtocolError, decodeMessage, encodeUpdate } from './protocol';
import { type DeleteSet, assertMergeable, pendingOf, wouldChange } from './updates';

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

describe('wouldChange on deletions', () => {
  /** A server holding "abcdefghij" from client 1, and that client's update deleting clocks 2 to 4. */
  function deletion() {
    const client = new Y.Doc();
    client.clientID = 1;
    client.getText('t').insert(0, 'abcdefghij');
    const server = new Y.Doc();
    Y.applyUpdate(server, Y.encodeStateAsUpdate(client));
    const sv = Y.encodeStateVector(server);
    client.getText('t').delete(2, 3);
    return { server, update: Y.encodeStateAsUpdate(client, sv) };
  }
  /** What the server is taken to have deleted already, as sorted, merged ranges of client 1. */
  const known =
    (...ranges: [clock: number, len: number][]) =>
    () =>
      ({ clients: new Map([[1, ranges.map(([clock, len]) => ({ clock, len }))]]) }) as unknown as DeleteSet;

  it('counts a deletion the server has not made', () => {
    const { server, update } = deletion();
    expect(wouldChange(server, update)).toBe(true);
    expect(wouldChange(server, update, known())).toBe(true);
    expect(wouldChange(server, update, () => ({ clients: new Map() }) as unknown as DeleteSet)).toBe(true);
  });

  it.each<[string, [number, number][], boolean]>([
    ['the same range', [[2, 3]], false],
    ['a range around it', [[0, 10]], false],
    [
      'two ranges that meet inside it',
      [
        [0, 3],
        [3, 2],
      ],
      false,
    ],
    [
      'a range ending where it starts, then one covering it',
      [
        [0, 2],
        [2, 3],
      ],
      false,
    ],
    [
      'an earlier range, then one covering it',
      [
        [0, 1],
        [2, 3],
      ],
      false,
    ],
    [
      'a range covering it, then a later one',
      [
        [0, 5],
        [7, 1],
      ],
      false,
    ],
    ['a range ending where it starts', [[0, 2]], true],
    ['a range covering its start only', [[0, 3]], true],
    ['a range covering its end only', [[3, 5]], true],
    [
      'two ranges with a hole inside it',
      [
        [0, 3],
        [4, 6],
      ],
      true,
    ],
    ['a range after it', [[6, 2]], true],
  ])('with %s already deleted', (_name, ranges, expected) => {
    const { server, update } = deletion();
    expect(wouldChange(server, update, known(...ranges))).toBe(expected);
  });

  it('sees nothing in an update with neither content nor deletions', () => {
    const doc = new Y.Doc();
    doc.getText('t').insert(0, 'only inserts');
    const empty = Y.encodeStateAsUpdate(doc, Y.encodeStateVector(doc));
    expect(Y.decodeUpdate(empty).ds.clients.size).toBe(0);
    expect(wouldChange(doc, empty)).toBe(false);
  });

  it('sees nothing new in the whole state of a document the server already has', () => {
    const { server, client } = pair();
    expect(wouldChange(server, Y.encodeStateAsUpdate(client))).toBe(false);
    expect(wouldChange(server, Y.encodeStateAsUpdate(server))).toBe(false);
  });
});

describe('pendingOf', () => {
  it('names the parts of a document waiting for what they build on', () => {
    const writer = new Y.Doc();
    writer.getText('t').insert(0, 'a');
    const sv = Y.encodeStateVector(writer);
    writer.getText('t').insert(1, 'b');
    const doc = new Y.Doc();
    expect(pendingOf(doc)).toEqual([null, null]);
    Y.applyUpdate(doc, Y.encodeStateAsUpdate(writer, sv));
    const [structs] = pendingOf(doc);
    expect(structs).not.toBeNull();
    expect(pendingOf(doc)[0]).toBe(doc.store.pendingStructs);
    expect(pendingOf(doc)[1]).toBe(doc.store.pendingDs);
  });
});

describe('assertMergeable', () => {
  it('accepts an update and refuses bytes the merge cannot read', () => {
    expect(() => assertMergeable(Y.encodeStateAsUpdate(pair().client))).not.toThrow();
    expect(() => assertMergeable(new Uint8Array([1, 200, 3]))).toThrow();
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
