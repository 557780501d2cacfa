import { getPageDocument } from '@quire/shared/content/body';
import type { NodeJSON } from '@quire/shared/content/json';
import { listPages } from '@quire/shared/content/pages';
import { diffArrays } from 'diff';
import type * as Y from 'yjs';

/**
 * What a change request changes, block by block, the way a reviewer reads it. Blocks are
 * compared as trees: an edited block is shown once with what changed inside it (the words
 * of a paragraph, the one item of a list, the one cell of a table, an image's caption),
 * a block that only moved shows as moved, and only what is really new or gone shows
 * whole. Computed from the documents themselves, so images, tables and every other block
 * compare as what they are, not as markdown lines.
 */

/** A run of inline content that is unchanged, added or removed; `nodes` keep their marks. */
export interface WordPart {
  kind: 'same' | 'added' | 'removed';
  text: string;
  nodes: NodeJSON[];
}

/** An attribute of a block that changed (an image's caption, a code block's language). */
export interface AttrChange {
  name: string;
  before: unknown;
  after: unknown;
  /** For text attributes: the changed words. */
  words?: WordPart[];
}

export interface ChangedBlock {
  kind: 'changed';
  before: NodeJSON;
  after: NodeJSON;
  /** A block of text (paragraph, heading, code): its inline content, word by word. */
  words?: WordPart[];
  /** A block of blocks (list, table, row, quote…): its children, compared in turn. */
  children?: BlockChange[];
  attrs?: AttrChange[];
}

export type BlockChange =
  | { kind: 'same'; block: NodeJSON }
  | { kind: 'added'; block: NodeJSON }
  | { kind: 'removed'; block: NodeJSON }
  /** The block as it is, where it moved to. */
  | { kind: 'moved'; block: NodeJSON }
  /** Where a moved block was. */
  | { kind: 'movedAway'; block: NodeJSON }
  | ChangedBlock
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
const INLINE = new Set(['text', 'hardBreak', 'htmlInline', 'mathInline', 'inlineImage']);

/** Blocks whose content is text (and inline nodes), compared word by word. */
function holdsText(node: NodeJSON): boolean {
  return TEXT_BLOCKS.has(node.type) || (node.content ?? []).some((c) => INLINE.has(c.type));
}

/** Two blocks are one edited block when they are the same kind (and level, for headings). */
function sameKind(a: NodeJSON, b: NodeJSON): boolean {
  if (a.type !== b.type) return false;
  if (a.type === 'heading') return a.attrs?.level === b.attrs?.level;
  return true;
}

/** Words, runs of white space and single signs: what a change is marked in. */
const TOKEN = /\s+|[\p{L}\p{M}\p{N}_]+|[^\s\p{L}\p{M}\p{N}_]/gu;

interface Token {
  key: string;
  node: NodeJSON;
  space: boolean;
}

/** Inline content as tokens that carry their marks: a word made bold is a changed word. */
function tokensOf(content: NodeJSON[]): Token[] {
  const out: Token[] = [];
  for (const node of content) {
    if (node.type !== 'text') {
      out.push({ key: key(node), node, space: false });
      continue;
    }
    for (const piece of (node.text ?? '').match(TOKEN) ?? []) {
      out.push({ key: JSON.stringify([piece, node.marks ?? null]), node: { ...node, text: piece }, space: !piece.trim() });
    }
  }
  return out;
}

/** Adjacent tokens with the same marks become one text node again. */
function partOf(kind: WordPart['kind'], tokens: Token[]): WordPart {
  const nodes: NodeJSON[] = [];
  for (const { node } of tokens) {
    const last = nodes.at(-1);
    if (node.type === 'text' && last?.type === 'text' && JSON.stringify(last.marks ?? null) === JSON.stringify(node.marks ?? null)) {
      nodes[nodes.length - 1] = { ...last, text: `${last.text ?? ''}${node.text ?? ''}` };
    } else nodes.push(node);
  }
  return { kind, text: nodes.map(textOf).join(''), nodes };
}

/**
 * Two runs of inline content compared word by word. A lone space between two changes is
 * taken into them, so a rewritten phrase reads as one phrase struck and one inserted, not
 * as words interleaved.
 */
export function diffInline(before: NodeJSON[], after: NodeJSON[]): WordPart[] {
  const a = tokensOf(before);
  const b = tokensOf(after);
  const runs: { kind: WordPart['kind']; removed: Token[]; added: Token[] }[] = [];
  let ia = 0;
  let ib = 0;
  for (const part of diffArrays(
    a.map((t) => t.key),
    b.map((t) => t.key),
  )) {
    const n = part.value.length;
    if (part.removed) runs.push({ kind: 'removed', removed: a.slice(ia, (ia += n)), added: [] });
    else if (part.added) runs.push({ kind: 'added', removed: [], added: b.slice(ib, (ib += n)) });
    else {
      runs.push({ kind: 'same', removed: a.slice(ia, (ia += n)), added: b.slice(ib, (ib += n)) });
    }
  }
  const out: WordPart[] = [];
  let removed: Token[] = [];
  let added: Token[] = [];
  const flush = () => {
    if (removed.length) out.push(partOf('removed', removed));
    if (added.length) out.push(partOf('added', added));
    removed = [];
    added = [];
  };
  runs.forEach((run, i) => {
    const between = i > 0 && i < runs.length - 1 && runs[i - 1]?.kind !== 'same' && runs[i + 1]?.kind !== 'same';
    if (run.kind === 'same' && !(between && run.added.every((t) => t.space))) {
      flush();
      out.push(partOf('same', run.added));
      return;
    }
    removed.push(...run.removed);
    added.push(...run.added);
  });
  flush();
  return out;
}

/** Words of a block's text, for telling an edit of a block from a different block. */
const wordsOf = (node: NodeJSON) =>
  textOf(node)
    .toLowerCase()
    .match(/[\p{L}\p{N}]+/gu) ?? [];

/** How alike two blocks of the same kind are, from 0 to 1: shared words, or shared attributes for blocks without text. */
function similarity(a: NodeJSON, b: NodeJSON): number {
  const wa = wordsOf(a);
  const wb = wordsOf(b);
  if (wa.length + wb.length > 0) {
    const counts = new Map<string, number>();
    for (const w of wa) counts.set(w, (counts.get(w) ?? 0) + 1);
    let common = 0;
    for (const w of wb) {
      const n = counts.get(w) ?? 0;
      if (n > 0) {
        common++;
        counts.set(w, n - 1);
      }
    }
    return (2 * common) / (wa.length + wb.length);
  }
  const names = new Set([...Object.keys(a.attrs ?? {}), ...Object.keys(b.attrs ?? {})]);
  if (names.size === 0) return 1;
  let same = 0;
  for (const n of names) if (JSON.stringify(a.attrs?.[n] ?? null) === JSON.stringify(b.attrs?.[n] ?? null)) same++;
  // What an atom shows (an image's file, an embed's address) decides whether it is the same one.
  for (const n of ['src', 'fileId', 'url', 'href', 'reusableContentId']) {
    if (names.has(n) && JSON.stringify(a.attrs?.[n] ?? null) !== JSON.stringify(b.attrs?.[n] ?? null)) return 0;
  }
  return same / names.size;
}

/** Below this, two blocks of a longer run are a removal and an addition, not one edit. */
const SAME_BLOCK = 0.4;

/** A block worth calling moved: an empty paragraph or a rule found elsewhere is no move. */
function movable(node: NodeJSON): boolean {
  return textOf(node).trim().length > 0 || Object.values(node.attrs ?? {}).some((v) => typeof v === 'string' && v !== '');
}

function attrChanges(before: NodeJSON, after: NodeJSON): AttrChange[] {
  const names = new Set([...Object.keys(before.attrs ?? {}), ...Object.keys(after.attrs ?? {})]);
  const out: AttrChange[] = [];
  for (const name of names) {
    const b = before.attrs?.[name] ?? null;
    const a = after.attrs?.[name] ?? null;
    if (JSON.stringify(a) === JSON.stringify(b)) continue;
    const text = (v: unknown) => (v === null ? '' : typeof v === 'string' ? v : undefined);
    const tb = text(b);
    const ta = text(a);
    out.push({
      name,
      before: b,
      after: a,
      ...(tb !== undefined && ta !== undefined
        ? { words: diffInline(tb ? [{ type: 'text', text: tb }] : [], ta ? [{ type: 'text', text: ta }] : []) }
        : {}),
    });
  }
  return out;
}

/** One block edited: what changed inside it. */
export function diffBlock(before: NodeJSON, after: NodeJSON): ChangedBlock {
  const out: ChangedBlock = { kind: 'changed', before, after };
  const attrs = attrChanges(before, after);
  if (attrs.length) out.attrs = attrs;
  if (key({ ...before, attrs: undefined }) === key({ ...after, attrs: undefined })) return out;
  if (holdsText(before) || holdsText(after)) out.words = diffInline(before.content ?? [], after.content ?? []);
  else out.children = diffChildren(before.content ?? [], after.content ?? []);
  return out;
}

interface Run {
  removed: { block: NodeJSON; moved?: boolean }[];
  added: { block: NodeJSON; moved?: boolean }[];
}

/**
 * A run of removed blocks and the added ones at the same place: an edit pairs one of each,
 * in order, where they are the same kind and alike enough (one of each is always an edit
 * when their kinds match). What does not pair stays a removal or an addition.
 */
function emitRun(run: Run, out: BlockChange[]) {
  const removed = run.removed.filter((r) => !r.moved);
  const added = run.added.filter((a) => !a.moved);
  const oneEach = removed.length === 1 && added.length === 1;
  const pairs = new Map<NodeJSON, NodeJSON>();
  let from = 0;
  for (const r of removed) {
    for (let j = from; j < added.length; j++) {
      const a = added[j] as Run['added'][number];
      if (sameKind(r.block, a.block) && (oneEach || similarity(r.block, a.block) >= SAME_BLOCK)) {
        pairs.set(r.block, a.block);
        from = j + 1;
        break;
      }
    }
  }
  const pairedAdds = new Set(pairs.values());
  let ai = 0;
  const addsUpTo = (stop: NodeJSON | undefined) => {
    while (ai < run.added.length) {
      const a = run.added[ai] as Run['added'][number];
      if (a.block === stop) return;
      ai++;
      if (!pairedAdds.has(a.block) || a.moved) out.push({ kind: a.moved ? 'moved' : 'added', block: a.block });
    }
  };
  for (const r of run.removed) {
    const partner = r.moved ? undefined : pairs.get(r.block);
    if (!partner) {
      out.push({ kind: r.moved ? 'movedAway' : 'removed', block: r.block });
      continue;
    }
    addsUpTo(partner);
    ai++;
    out.push(diffBlock(r.block, partner));
  }
  addsUpTo(undefined);
}

/** Two lists of sibling blocks compared: unchanged, moved, edited, added and removed blocks, in reading order. */
export function diffChildren(a: NodeJSON[], b: NodeJSON[]): BlockChange[] {
  const segments: ({ kind: 'same'; block: NodeJSON } | ({ kind: 'run' } & Run))[] = [];
  let ia = 0;
  let ib = 0;
  const run = () => {
    const last = segments.at(-1);
    if (last?.kind === 'run') return last;
    const fresh = { kind: 'run' as const, removed: [], added: [] };
    segments.push(fresh);
    return fresh;
  };
  for (const part of diffArrays(a.map(key), b.map(key))) {
    const n = part.value.length;
    if (part.removed) run().removed.push(...a.slice(ia, (ia += n)).map((block) => ({ block })));
    else if (part.added) run().added.push(...b.slice(ib, (ib += n)).map((block) => ({ block })));
    else {
      for (const block of b.slice(ib, ib + n)) segments.push({ kind: 'same', block });
      ia += n;
      ib += n;
    }
  }
  // A block removed in one place and added unchanged in another moved.
  const runs = segments.filter((s) => s.kind === 'run');
  const gone = new Map<string, Run['removed']>();
  for (const r of runs.flatMap((s) => s.removed)) {
    if (!movable(r.block)) continue;
    const k = key(r.block);
    gone.set(k, [...(gone.get(k) ?? []), r]);
  }
  for (const added of runs.flatMap((s) => s.added)) {
    const from = gone.get(key(added.block))?.shift();
    if (!from) continue;
    from.moved = true;
    added.moved = true;
  }
  const out: BlockChange[] = [];
  for (const s of segments) {
    if (s.kind === 'same') out.push(s);
    else emitRun(s, out);
  }
  return out;
}

/** The blocks of two versions of a page body, compared. */
export function diffBlocks(before: NodeJSON, after: NodeJSON): BlockChange[] {
  return diffChildren(before.content ?? [], after.content ?? []);
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

/**
 * Every page added, removed or edited (title, place or body) from `before` to `after`, in
 * `after`'s page order. A change request is drawn with `before` the main content it
 * started from (or last took in), never main as it is now: main's own later edits are not
 * the change request's.
 */
export function diffPages(before: Y.Doc, after: Y.Doc): PageChange[] {
  const old = new Map(listPages(before).map((p) => [p.id, p]));
  const now = listPages(after);
  const out: PageChange[] = [];
  for (const page of now) {
    const was = old.get(page.id);
    const body = getPageDocument(after, page.id);
    if (!was) {
      out.push({
        pageId: page.id,
        kind: 'added',
        title: page.title,
        blocks: (body.content ?? []).map((block) => ({ kind: 'added', block })),
      });
      continue;
    }
    const oldBody = getPageDocument(before, page.id);
    const bodyChanged = key(oldBody) !== key(body);
    const moved = was.parent !== page.parent;
    if (!bodyChanged && was.title === page.title && !moved) continue;
    out.push({
      pageId: page.id,
      kind: 'edited',
      title: page.title,
      previousTitle: was.title !== page.title ? was.title : undefined,
      moved: moved || undefined,
      blocks: bodyChanged ? foldUnchanged(diffBlocks(oldBody, body)) : [],
    });
  }
  const kept = new Set(now.map((p) => p.id));
  for (const [id, page] of old) {
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
