// The work on large documents that would block the event loop (see docThread.ts): merging
// a log, diffing it against a client's state vector, folding it into a garbage-collected
// snapshot, and cutting an update into slices that a room applies one turn at a time.
// Plain JavaScript, so the worker starts without a TypeScript loader.
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import { parentPort } from 'node:worker_threads';
import * as Y from 'yjs';

const merge = (parts) => (parts.length === 1 ? parts[0] : Y.mergeUpdates(parts));

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

/** The log folded into one update, deleted content collected as a room's document would. */
function collected(parts) {
  const doc = new Y.Doc({ gc: true });
  for (const p of parts) Y.applyUpdate(doc, p);
  const state = Y.encodeStateAsUpdate(doc);
  doc.destroy();
  return state;
}

const ops = {
  /** The whole log as one update, and that update in slices. */
  load: ({ parts, budget }) => {
    const state = merge(parts);
    return { state, slices: sliceUpdate(state, budget) };
  },
  /** What the log holds past a state vector, in slices. */
  missing: ({ parts, stateVector, budget }) => {
    const diff = Y.diffUpdate(merge(parts), stateVector);
    return { diff, slices: sliceUpdate(diff, budget) };
  },
  /** What the log holds past a state vector (a sync step 2), and the log merged. */
  diff: ({ parts, stateVector }) => {
    const state = merge(parts);
    return { state, diff: Y.diffUpdate(state, stateVector) };
  },
  /** The log as a compaction's snapshot. */
  collect: ({ parts }) => ({ state: collected(parts) }),
};

if (parentPort) {
  parentPort.on('message', ({ id, op, args }) => {
    let reply;
    try {
      const result = ops[op](args);
      const buffers = Object.values(result).flatMap((v) => (Array.isArray(v) ? v : [v]).map((u) => u.buffer));
      reply = () => parentPort.postMessage({ id, result }, [...new Set(buffers)]);
    } catch (err) {
      reply = () => parentPort.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
    }
    reply();
  });
}
