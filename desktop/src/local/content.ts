import { readBody } from '@quire/shared/content/body';
import type { NodeJSON } from '@quire/shared/content/json';
import { bodyFragment, findPageMap } from '@quire/shared/content/layout';
import { bodyToMarkdown } from '@quire/shared/content/markdown/serialize';
import { createPage, listPages } from '@quire/shared/content/pages';
import { diffLines } from 'diff';
import * as Y from 'yjs';
import type { ChangeRequestDiff, DiffLine, SearchHit } from '../common/ipc';

/**
 * What the LocalNode reads out of branch docs: search, change request diffs, the first
 * page of a new space. All of it goes through the shared content model; nothing here
 * knows the Y.Doc layout.
 */

/** The whole state of a new space: one empty first page, so the editor opens on something. */
export function seedNewSpace(_title: string): Uint8Array {
  const doc = new Y.Doc();
  createPage(doc, { title: 'Getting started', document: { type: 'doc', content: [{ type: 'paragraph' }] } });
  const update = Y.encodeStateAsUpdate(doc);
  doc.destroy();
  return update;
}

/** Plain text of a body, blocks separated by newlines: what search reads. */
export function plainText(node: NodeJSON): string {
  const out: string[] = [];
  const walk = (n: NodeJSON, line: string[]): void => {
    if (n.text) line.push(n.text);
    const block = !n.text && n.type !== 'hardBreak' && n.content !== undefined && !n.content.some((c) => c.content);
    if (block) {
      const own: string[] = [];
      for (const child of n.content ?? []) walk(child, own);
      out.push(own.join(''));
      return;
    }
    for (const child of n.content ?? []) walk(child, line);
  };
  walk(node, []);
  return out.filter((l) => l.trim()).join('\n');
}

function pageBody(doc: Y.Doc, pageId: string): NodeJSON {
  const map = findPageMap(doc, pageId);
  return readBody(map ? bodyFragment(map, false) : null);
}

function snippetAround(text: string, index: number, length: number): string {
  const start = Math.max(0, index - 60);
  const end = Math.min(text.length, index + length + 80);
  return `${start > 0 ? '…' : ''}${text.slice(start, end).replace(/\s+/g, ' ').trim()}${end < text.length ? '…' : ''}`;
}

/**
 * Pages of a branch matching every word of the query, titles weighing more than body
 * text; best first. Runs on the local doc, so it works offline and sees unsent edits.
 */
export function searchBranch(doc: Y.Doc, query: string, limit = 30): SearchHit[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [];
  const hits: SearchHit[] = [];
  for (const page of listPages(doc)) {
    const title = page.title || 'Untitled';
    const text = plainText(pageBody(doc, page.id));
    const lowerTitle = title.toLowerCase();
    const lowerText = text.toLowerCase();
    let score = 0;
    let first = -1;
    let firstLength = 0;
    let all = true;
    for (const w of words) {
      const inTitle = lowerTitle.includes(w);
      const at = lowerText.indexOf(w);
      if (!inTitle && at < 0) {
        all = false;
        break;
      }
      if (inTitle) score += 10;
      if (at >= 0) {
        score += 1 + Math.min(5, lowerText.split(w).length - 1);
        if (first < 0 || at < first) {
          first = at;
          firstLength = w.length;
        }
      }
    }
    if (!all) continue;
    const snippet = first >= 0 ? snippetAround(text, first, firstLength) : text.slice(0, 140).replace(/\s+/g, ' ');
    hits.push({ pageId: page.id, title, snippet, score });
  }
  return hits.sort((a, b) => b.score - a.score || a.title.localeCompare(b.title)).slice(0, limit);
}

function markdownOf(doc: Y.Doc, pageId: string): string {
  try {
    return bodyToMarkdown(pageBody(doc, pageId));
  } catch {
    return plainText(pageBody(doc, pageId));
  }
}

function lines(before: string, after: string): DiffLine[] {
  const out: DiffLine[] = [];
  for (const part of diffLines(before, after)) {
    const kind: DiffLine['kind'] = part.added ? 'added' : part.removed ? 'removed' : 'same';
    const text = part.value.endsWith('\n') ? part.value.slice(0, -1) : part.value;
    for (const line of text.split('\n')) out.push({ kind, text: line });
  }
  return out;
}

/**
 * What a change request's branch changes against `base`, main as the request took it in:
 * pages only in the branch (added), only in the base (removed), and in both with another
 * title or body (edited, with a line diff of their markdown).
 */
export function diffBranches(base: Y.Doc, branch: Y.Doc): ChangeRequestDiff {
  const before = new Map(listPages(base).map((p) => [p.id, p]));
  const after = new Map(listPages(branch).map((p) => [p.id, p]));
  const diff: ChangeRequestDiff = { added: [], removed: [], edited: [] };
  for (const [id, page] of after) {
    const old = before.get(id);
    const title = page.title || 'Untitled';
    if (!old) {
      diff.added.push({ pageId: id, title, lines: lines('', markdownOf(branch, id)) });
      continue;
    }
    const a = markdownOf(base, id);
    const b = markdownOf(branch, id);
    if (a !== b || old.title !== page.title) {
      diff.edited.push({
        pageId: id,
        title,
        previousTitle: old.title !== page.title ? old.title || 'Untitled' : undefined,
        lines: lines(a, b),
      });
    }
  }
  for (const [id, page] of before) {
    if (!after.has(id)) diff.removed.push({ pageId: id, title: page.title || 'Untitled' });
  }
  return diff;
}
