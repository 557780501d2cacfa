import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readBody, writeBody } from '@quire/shared/content/body';
import type { NodeJSON } from '@quire/shared/content/json';
import { markdownToBody } from '@quire/shared/content/markdown/parse';
import { bodySchema } from '@quire/shared/content/schema';
import { getSchema } from '@tiptap/core';
import { describe, expect, it } from 'vitest';
import { initProseMirrorDoc } from 'y-prosemirror';
import * as Y from 'yjs';
import { schemaExtensions } from './schema';

/**
 * The editor binds page bodies with y-prosemirror, which silently deletes any Yjs element
 * its schema rejects: every construct the server stores must open in the editor unchanged.
 */

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '../../../../shared/src/content/fixtures');
const editorSchema = getSchema(schemaExtensions());

function typesIn(node: NodeJSON, nodes = new Set<string>(), marks = new Set<string>()) {
  nodes.add(node.type);
  for (const m of node.marks ?? []) marks.add(m.type);
  for (const child of node.content ?? []) typesIn(child, nodes, marks);
  return { nodes, marks };
}

/** What the editor sees of a stored body: the fragment read through its own schema. */
function throughEditor(body: NodeJSON): NodeJSON {
  const doc = new Y.Doc();
  const fragment = doc.getXmlFragment('body');
  writeBody(fragment, body);
  const { doc: pmDoc } = initProseMirrorDoc(fragment, editorSchema);
  return pmDoc.toJSON() as NodeJSON;
}

const bodies = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.md'))
  .map((f) => ({ name: f, body: markdownToBody(readFileSync(join(FIXTURES, f), 'utf8')).doc }));

describe('the editor schema', () => {
  it('has every node and mark of the body schema, with the same content, groups and attributes', () => {
    bodySchema.spec.nodes.forEach((name, spec) => {
      const mine = editorSchema.nodes[name];
      expect(mine, `node ${name}`).toBeDefined();
      expect(mine?.spec.content ?? '', `content of ${name}`).toBe(spec.content ?? '');
      expect(mine?.spec.group ?? '', `group of ${name}`).toBe(spec.group ?? '');
      expect(Object.keys(mine?.spec.attrs ?? {}).sort(), `attributes of ${name}`).toEqual(Object.keys(spec.attrs ?? {}).sort());
    });
    bodySchema.spec.marks.forEach((name, spec) => {
      const mine = editorSchema.marks[name];
      expect(mine, `mark ${name}`).toBeDefined();
      expect(Object.keys(mine?.spec.attrs ?? {}).sort(), `attributes of ${name}`).toEqual(Object.keys(spec.attrs ?? {}).sort());
    });
    expect(Object.keys(editorSchema.nodes).sort()).toEqual(Object.keys(bodySchema.nodes).sort());
    expect(Object.keys(editorSchema.marks).sort()).toEqual(Object.keys(bodySchema.marks).sort());
  });

  it('opens every construct of the content fixtures through y-prosemirror without losing anything', () => {
    const seen = { nodes: new Set<string>(), marks: new Set<string>() };
    for (const { name, body } of bodies) {
      typesIn(body, seen.nodes, seen.marks);
      const stored = (() => {
        const doc = new Y.Doc();
        const fragment = doc.getXmlFragment('body');
        writeBody(fragment, body);
        return readBody(fragment);
      })();
      expect(throughEditor(body), name).toEqual(stored);
    }
    // The fixtures are the catalogue of constructs: they must use all of them for this test to mean it.
    const missing = Object.keys(bodySchema.nodes).filter((n) => !seen.nodes.has(n));
    expect(missing).toEqual([]);
    expect(Object.keys(bodySchema.marks).filter((m) => !seen.marks.has(m))).toEqual([]);
  });
});
