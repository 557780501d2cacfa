import { getPageDocument } from '@quire/shared/content/body';
import type { NodeJSON } from '@quire/shared/content/json';
import { listPages } from '@quire/shared/content/pages';
import { diffArrays, diffWordsWithSpace } from 'diff';
import type * as Y from 'yjs';

/**
 * What a change request changes, block by block, the way a reviewer reads it: whole
 * blocks added or removed, and a block that was edited shown once with its changed words
 * marked. Computed from the two branches' documents, so images, tables and every other
 * block compare as what they are, not as markdown lines.
 */

export type WordPart = { text: string; kind: 'same' | 'added' | 'removed' };

export type BlockChange =
  | { kind: 'same'; block: NodeJSON }
  | { kind: 'added'; block: NodeJSON }
  | { kind: 'removed'; block: NodeJSON }
  /** The same kind of block, edited: `words` marks the text changes (for text blocks). */
  | { kind: 'changed'; before: NodeJSON; after: NodeJSON; words: WordPart[] | null }
  | { kind: 'fold'; count: number };

export interface PageChange {
  pageId: string;
  kind: 'added' | 'removed' | 'edited';
  title: string;
  previousTitle?: string;
  /** The page moved under another parent. */
  moved?: boolean;
  blocks: BlockChange[];
}

const key = (node: NodeJSON) => JSON.stringify(node);

/** A block's text, as a reader sees it. */
export function textOf(node: NodeJSON): string {
  if (node.type === 'text') return node.text ?? '';
  if (node.type === 'hardBreak') return '\n';
  return (node.content ?? []).map(textOf).join('');
}

const TEXT_BLOCKS = new Set(['paragraph', 'heading', 'codeBlock', 'detailsSummary']);

/** Two blocks are one edited block when they are the same kind (and level, for headings). */
function sameKind(a: NodeJSON, b: NodeJSON): boolean {
  if (a.type !== b.type) return false;
  if (a.type === 'heading') return a.attrs?.level === b.attrs?.level;
  return true;
}

function wordParts(before: NodeJSON, after: NodeJSON): WordPart[] | null {
  if (!TEXT_BLOCKS.has(before.type)) return null;
  return diffWordsWithSpace(textOf(before), textOf(after)).map((p) => ({
    text: p.value,
    kind: p.added ? 'added' : p.removed ? 'removed' : 'same',
  }));
}

/**
 * Runs of removed blocks followed by added ones pair up, in order, while their kinds
 * match: those are edits of one block. The rest stay whole additions and removals.
 */
function pairEdits(removed: NodeJSON[], added: NodeJSON[]): BlockChange[] {
  const out: BlockChange[] = [];
  let r = 0;
  let a = 0;
  while (r < removed.length || a < added.length) {
    const before = removed[r];
    const after = added[a];
    if (before && after && sameKind(before, after)) {
      out.push({ kind: 'changed', before, after, words: wordParts(before, after) });
      r++;
      a++;
    } else if (before && (!after || removed.length - r >= added.length - a)) {
      out.push({ kind: 'removed', block: before });
      r++;
    } else if (after) {
      out.push({ kind: 'added', block: after });
      a++;
    }
  }
  return out;
}

/** The blocks of two versions of a page body, compared. */
export function diffBlocks(before: NodeJSON, after: NodeJSON): BlockChange[] {
  const a = before.content ?? [];
  const b = after.content ?? [];
  const parts = diffArrays(a.map(key), b.map(key));
  const out: BlockChange[] = [];
  let ia = 0;
  let ib = 0;
  let removed: NodeJSON[] = [];
  let added: NodeJSON[] = [];
  const flush = () => {
    out.push(...pairEdits(removed, added));
    removed = [];
    added = [];
  };
  for (const part of parts) {
    const n = part.value.length;
    if (part.removed) {
      removed.push(...a.slice(ia, ia + n));
      ia += n;
    } else if (part.added) {
      added.push(...b.slice(ib, ib + n));
      ib += n;
    } else {
      flush();
      for (const block of b.slice(ib, ib + n)) out.push({ kind: 'same', block });
      ia += n;
      ib += n;
    }
  }
  flush();
  return out;
}

/** Unchanged blocks far from any change fold into one line; `context` blocks stay around each change. */
export function foldUnchanged(blocks: BlockChange[], context = 1): BlockChange[] {
  const changed = blocks.map((b) => b.kind !== 'same');
  const near = (i: number) => changed.slice(Math.max(0, i - context), i + context + 1).some(Boolean);
  const out: BlockChange[] = [];
  let folded = 0;
  blocks.forEach((block, i) => {
    if (block.kind === 'same' && !near(i)) {
      folded++;
      return;
    }
    if (folded) out.push({ kind: 'fold', count: folded });
    folded = 0;
    out.push(block);
  });
  if (folded) out.push({ kind: 'fold', count: folded });
  return out;
}

/** Every page the change request adds, removes or edits (title, place or body), in the branch's page order. */
export function diffPages(main: Y.Doc, branch: Y.Doc): PageChange[] {
  const before = new Map(listPages(main).map((p) => [p.id, p]));
  const after = listPages(branch);
  const out: PageChange[] = [];
  for (const page of after) {
    const old = before.get(page.id);
    const body = getPageDocument(branch, page.id);
    if (!old) {
      out.push({
        pageId: page.id,
        kind: 'added',
        title: page.title,
        blocks: (body.content ?? []).map((block) => ({ kind: 'added', block })),
      });
      continue;
    }
    const oldBody = getPageDocument(main, page.id);
    const bodyChanged = key(oldBody) !== key(body);
    const moved = old.parent !== page.parent;
    if (!bodyChanged && old.title === page.title && !moved) continue;
    out.push({
      pageId: page.id,
      kind: 'edited',
      title: page.title,
      previousTitle: old.title !== page.title ? old.title : undefined,
      moved: moved || undefined,
      blocks: bodyChanged ? foldUnchanged(diffBlocks(oldBody, body)) : [],
    });
  }
  const kept = new Set(after.map((p) => p.id));
  for (const [id, page] of before) {
    if (!kept.has(id)) out.push({ pageId: id, kind: 'removed', title: page.title, blocks: [] });
  }
  return out;
}

/**
 * A branch doc that holds nothing yet (no client ever wrote to it) is still loading: a
 * change request starts as a copy of main, so an empty one is never its real content.
 * Diffing it would show every page as removed.
 */
export function isLoaded(doc: Y.Doc): boolean {
  return doc.store.clients.size > 0;
}
