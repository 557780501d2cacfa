// Parses one YAML document in a worker thread (see parseYaml.ts): the expanded size is
// counted before anything is built, so an alias bomb is refused while it is still small.
// Plain JavaScript, so the worker starts without a TypeScript loader.
import { parentPort, workerData } from 'node:worker_threads';
import { isAlias, isMap, isPair, isSeq, parseDocument, visit } from 'yaml';

const { text, maxNodes } = workerData;

class TooLarge extends Error {}

/** Nodes the document has once every alias is replaced by what it names; each node is counted once per place it appears. */
function expandedSize(doc) {
  // Aliases resolved in one pass in document order (an alias names the latest anchor before it).
  const anchors = new Map();
  const targets = new Map();
  visit(doc, {
    Node(_, node) {
      if (isAlias(node)) targets.set(node, anchors.get(node.source));
      else if (node.anchor) anchors.set(node.anchor, node);
    },
  });
  const sizes = new Map();
  const open = new Set();
  const size = (node) => {
    if (node === null || node === undefined) return 1;
    if (isAlias(node)) return size(targets.get(node));
    const known = sizes.get(node);
    if (known !== undefined) return known;
    if (open.has(node)) throw new TooLarge('an alias refers to a node that contains it');
    open.add(node);
    let n = 1;
    if (isMap(node) || isSeq(node)) {
      for (const item of node.items) {
        n += isPair(item) ? size(item.key) + size(item.value) : size(item);
        if (n > maxNodes) throw new TooLarge(`it expands to more than ${maxNodes} nodes once its aliases are resolved`);
      }
    }
    open.delete(node);
    sizes.set(node, n);
    return n;
  };
  return size(doc.contents);
}

try {
  const doc = parseDocument(text, { uniqueKeys: false });
  if (doc.errors.length) throw doc.errors[0];
  expandedSize(doc);
  parentPort.postMessage({ ok: true, value: doc.toJS({ maxAliasCount: -1 }) });
} catch (err) {
  parentPort.postMessage({ ok: false, tooLarge: err instanceof TooLarge, message: String(err?.message ?? err).split('\n')[0] });
}
