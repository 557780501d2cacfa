// The work on large documents that would block the event loop (see docThread.ts): reading
// a log into a replica of a room's document, answering a client's state vector or a
// compaction from that replica, and cutting an update into slices that a room applies one
// turn at a time.
// Plain JavaScript, so the worker starts without a TypeScript loader.
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import { parentPort } from 'node:worker_threads';
import * as Y from 'yjs';

/** Advances past an item's content (Yjs's update format v1), returning its length in clocks. */
function skipContent(d, ref) {
  switch (ref) {
    case 1: // deleted
      return decoding.readVarUint(d);
    case 2: {
      // JSON
      const n = decoding.readVarUint(d);
      for (let i = 0; i < n; i++) decoding.readVarString(d);
      return n;
    }
    case 3: // binary
      decoding.readVarUint8Array(d);
      return 1;
    case 4: // string: its length in UTF-16 units
      return decoding.readVarString(d).length;
    case 5: // embed
      decoding.readVarString(d);
      return 1;
    case 6: // format
      decoding.readVarString(d);
      decoding.readVarString(d);
      return 1;
    case 7: {
      // type: an XML element or hook carries its name
      const typeRef = decoding.readVarUint(d);
      if (typeRef === 3 || typeRef === 5) decoding.readVarString(d);
      return 1;
    }
    case 8: {
      // any
      const n = decoding.readVarUint(d);
      for (let i = 0; i < n; i++) decoding.readAny(d);
      return n;
    }
    case 9: // subdocument
      decoding.readVarString(d);
      decoding.readAny(d);
      return 1;
    default:
      throw new Error(`unknown content ${ref}`);
  }
}

const readId = (d) => ({ client: decoding.readVarUint(d), clock: decoding.readVarUint(d) });

/**
 * The structs of an update, per client, each with where its bytes are and the ids it needs
 * before it can be integrated (its origins, or the item that is its parent).
 */
function readStructs(update) {
  const d = decoding.createDecoder(update);
  const clients = [];
  const groups = decoding.readVarUint(d);
  for (let g = 0; g < groups; g++) {
    const count = decoding.readVarUint(d);
    const client = decoding.readVarUint(d);
    let clock = decoding.readVarUint(d);
    const structs = [];
    for (let i = 0; i < count; i++) {
      const start = d.pos;
      const info = decoding.readUint8(d);
      const deps = [];
      let len;
      const ref = info & 31;
      if (ref === 0 || ref === 10)
        len = decoding.readVarUint(d); // GC, skip
      else {
        if (info & 128) deps.push(readId(d));
        if (info & 64) deps.push(readId(d));
        if ((info & 192) === 0) {
          if (decoding.readVarUint(d) === 1) decoding.readVarString(d);
          else deps.push(readId(d));
          if (info & 32) decoding.readVarString(d);
        }
        len = skipContent(d, ref);
      }
      structs.push({ clock, len, start, end: d.pos, deps });
      clock += len;
    }
    clients.push({ client, structs });
  }
  const deletes = [];
  const dsClients = decoding.readVarUint(d);
  for (let c = 0; c < dsClients; c++) {
    const client = decoding.readVarUint(d);
    const n = decoding.readVarUint(d);
    for (let i = 0; i < n; i++) deletes.push([client, decoding.readVarUint(d), decoding.readVarUint(d)]);
  }
  return { clients, deletes };
}

/** One update of whole runs of structs, one run per client, and no deletions. */
function encodeRuns(update, runs) {
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, runs.size);
  for (const [client, r] of runs) {
    encoding.writeVarUint(e, r.count);
    encoding.writeVarUint(e, client);
    encoding.writeVarUint(e, r.clock);
    encoding.writeUint8Array(e, update.subarray(r.start, r.end));
  }
  encoding.writeVarUint(e, 0);
  return encoding.toUint8Array(e);
}

function encodeDeletes(deletes) {
  const byClient = new Map();
  for (const [client, clock, len] of deletes) {
    if (!byClient.has(client)) byClient.set(client, []);
    byClient.get(client).push([clock, len]);
  }
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, 0);
  encoding.writeVarUint(e, byClient.size);
  for (const [client, ranges] of byClient) {
    encoding.writeVarUint(e, client);
    encoding.writeVarUint(e, ranges.length);
    for (const [clock, len] of ranges) {
      encoding.writeVarUint(e, clock);
      encoding.writeVarUint(e, len);
    }
  }
  return encoding.toUint8Array(e);
}

/**
 * Cuts an update into slices of about `budget` bytes that, applied in order, make the same
 * document: each struct comes after every struct it depends on (so nothing waits in Yjs's
 * pending store), and the deletions come last, in slices of their own. When the update
 * cannot be ordered so (it lacks structs it depends on), the rest goes as one slice and
 * Yjs sorts it out as it would have.
 */
export function sliceUpdate(update, budget) {
  const { clients, deletes } = readStructs(update);
  const known = new Map(clients.map((c) => [c.client, c.structs[0]?.clock ?? 0]));
  const from = new Map(clients.map((c) => [c.client, c.structs[0]?.clock ?? 0]));
  const ready = (s) => s.deps.every((id) => !known.has(id.client) || id.clock < from.get(id.client) || id.clock < known.get(id.client));
  const next = new Map(clients.map((c) => [c.client, 0]));
  const slices = [];
  let runs = new Map();
  let bytes = 0;
  const flush = () => {
    if (runs.size > 0) slices.push(encodeRuns(update, runs));
    runs = new Map();
    bytes = 0;
  };
  const add = (c, s) => {
    const run = runs.get(c.client);
    if (run) {
      run.count++;
      run.end = s.end;
    } else runs.set(c.client, { count: 1, clock: s.clock, start: s.start, end: s.end });
    known.set(c.client, s.clock + s.len);
    next.set(c.client, next.get(c.client) + 1);
    bytes += s.end - s.start;
  };
  for (;;) {
    let progress = false;
    let left = false;
    for (const c of clients) {
      for (let i = next.get(c.client); i < c.structs.length; i = next.get(c.client)) {
        const s = c.structs[i];
        if (!ready(s)) break;
        add(c, s);
        progress = true;
        if (bytes >= budget) flush();
      }
      if (next.get(c.client) < c.structs.length) left = true;
    }
    if (!left) break;
    if (!progress) {
      for (const c of clients) for (let i = next.get(c.client); i < c.structs.length; i++) add(c, c.structs[i]);
      break;
    }
  }
  flush();
  const perSlice = Math.max(1, Math.floor(budget / 8));
  for (let i = 0; i < deletes.length; i += perSlice) slices.push(encodeDeletes(deletes.slice(i, i + perSlice)));
  return slices;
}

/**
 * The large documents of the rooms loaded, each a replica of a room's document: the room
 * sends it every row it applies, in the order it applies them, so that a question asked
 * after a row was sent is answered with that row (messages to a thread are handled in
 * order). Keyed by the number the room opened it with.
 */
const replicas = new Map();

function replica(key) {
  const doc = replicas.get(key);
  if (!doc) throw new Error(`no document ${key} on the document thread`);
  return doc;
}

const ops = {
  /**
   * A replica made of the log's parts, and its state cut into slices for the room to
   * build its own document from.
   */
  open: ({ key, parts, budget }) => {
    const doc = new Y.Doc({ gc: true });
    for (const p of parts) Y.applyUpdate(doc, p);
    replicas.set(key, doc);
    return { slices: sliceUpdate(Y.encodeStateAsUpdate(doc), budget) };
  },
  /** A row the room applied (stored, or read from the log). */
  apply: ({ key, update }) => {
    Y.applyUpdate(replica(key), update);
    return {};
  },
  /** What a client whose state vector is `stateVector` is missing (a sync step 2), or the whole document (a compaction). */
  encode: ({ key, stateVector }) => ({ update: Y.encodeStateAsUpdate(replica(key), stateVector) }),
  /** What an update (a snapshot another writer stored) holds past a state vector, in slices. */
  missing: ({ update, stateVector, budget }) => {
    const diff = Y.diffUpdate(update, stateVector);
    return { diff, slices: sliceUpdate(diff, budget) };
  },
  close: ({ key }) => {
    replicas.get(key)?.destroy();
    replicas.delete(key);
    return {};
  },
};

if (parentPort) {
  parentPort.on('message', ({ id, op, args }) => {
    // Results are copied, not transferred: an update may share its memory with a replica.
    try {
      parentPort.postMessage({ id, result: ops[op](args) });
    } catch (err) {
      parentPort.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
    }
  });
}
