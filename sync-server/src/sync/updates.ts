import * as Y from 'yjs';

/** A Yjs delete set (the type is not exported by name). */
export type DeleteSet = ReturnType<typeof Y.createDeleteSetFromStructStore>;

interface DeleteItem {
  clock: number;
  len: number;
}

/** Whether every clock of `[clock, clock+len)` lies in the sorted, merged `ranges`. */
function covered(ranges: DeleteItem[], clock: number, len: number): boolean {
  let at = clock;
  const end = clock + len;
  for (const r of ranges) {
    if (r.clock + r.len <= at) continue;
    if (r.clock > at) return false;
    at = r.clock + r.len;
    if (at >= end) return true;
  }
  return at >= end;
}

/**
 * Whether applying `update` would change `doc`. A client that may not write still sends
 * updates: its sync step 2 after every (re)connect carries the whole delete set of its
 * copy, which changes nothing. Only new content or new deletions count. `deletes` gives
 * the document's delete set (a room caches it between changes). Throws when the update
 * cannot be decoded.
 */
export function wouldChange(
  doc: Y.Doc,
  update: Uint8Array,
  deletes: () => DeleteSet = () => Y.createDeleteSetFromStructStore(doc.store),
): boolean {
  const { structs, ds } = Y.decodeUpdate(update);
  const sv = Y.decodeStateVector(Y.encodeStateVector(doc));
  for (const s of structs) {
    if (!(s instanceof Y.Item || s instanceof Y.GC)) continue; // a Skip only marks a gap
    if (s.id.clock + s.length > (sv.get(s.id.client) ?? 0)) return true;
  }
  const clients = (ds as unknown as { clients: Map<number, DeleteItem[]> }).clients;
  if (clients.size === 0) return false;
  const known = (deletes() as unknown as { clients: Map<number, DeleteItem[]> }).clients;
  for (const [client, items] of clients) {
    const ranges = known.get(client) ?? [];
    for (const d of items) if (d.len > 0 && !covered(ranges, d.clock, d.len)) return true;
  }
  return false;
}

/** The pending (not yet integrable) parts of a document: they change when an update adds to them. */
export function pendingOf(doc: Y.Doc): unknown[] {
  return [doc.store.pendingStructs, doc.store.pendingDs];
}

/**
 * Throws when `update` is one Yjs would apply but not merge. `applyUpdate` skips some
 * malformed structs (a skip carrying an item's flags) that the merge, which compaction and
 * every REST read of the document go through, throws on: stored, such an update would
 * leave the document unreadable outside the room. Reading the update's metadata walks
 * every struct with the merge's reader, at a small fraction of the cost of applying it.
 */
export function assertMergeable(update: Uint8Array): void {
  Y.parseUpdateMeta(update);
}
