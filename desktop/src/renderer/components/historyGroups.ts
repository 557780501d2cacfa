import type { PageRevisionView } from '../../common/ipc';

/** A pause longer than this between two versions by the same writer starts a new entry. */
export const SESSION_GAP_MS = 5 * 60_000;

type Touched = PageRevisionView['pages'][number];

/** One entry of a history: a writer's editing session (or one restore, merge, import…), newest first. */
export interface HistoryGroup {
  /** The versions it holds, newest first. */
  revisions: PageRevisionView[];
  /** The newest: what the entry compares with and restores. */
  newest: PageRevisionView;
  authorId: string | null;
  author: string | null;
  photo: string | null;
  from: string;
  to: string;
  /** Every page the session changed, each once, with what the session did to it overall. */
  pages: Touched[];
}

/** Only plain edits make sessions: a restore, a merge or an import is an event of its own. */
const sessionType = (r: PageRevisionView) => r.type === 'edits' || r.type === 'initial';

/**
 * Groups versions (newest first) into editing sessions: consecutive versions by the same
 * writer with pauses under `gap` are one entry; another writer or a longer pause starts
 * a new one.
 */
export function groupHistory(revisions: PageRevisionView[], gap = SESSION_GAP_MS): HistoryGroup[] {
  const groups: PageRevisionView[][] = [];
  for (const r of revisions) {
    const current = groups[groups.length - 1];
    const oldest = current?.[current.length - 1];
    const joins =
      !!oldest &&
      sessionType(r) &&
      sessionType(oldest) &&
      r.byId === oldest.byId &&
      Date.parse(oldest.createdAt) - Date.parse(r.createdAt) < gap;
    if (joins) current.push(r);
    else groups.push([r]);
  }
  return groups.map((rs) => {
    const newest = rs[0] as PageRevisionView;
    return {
      revisions: rs,
      newest,
      authorId: newest.byId,
      author: newest.by,
      photo: rs.find((r) => r.byPhoto)?.byPhoto ?? null,
      from: (rs[rs.length - 1] as PageRevisionView).createdAt,
      to: newest.createdAt,
      pages: touchedPages(rs),
    };
  });
}

/** What a session did to each page: added if it made the page, removed if it ends gone, else edited. */
function touchedPages(rs: PageRevisionView[]): Touched[] {
  const byId = new Map<string, Touched>();
  // Oldest first, so the newest title wins.
  for (const r of [...rs].reverse()) {
    for (const p of r.pages) {
      const before = byId.get(p.id);
      const change = before?.change === 'added' && p.change !== 'removed' ? 'added' : before && p.change === 'added' ? 'edited' : p.change;
      byId.set(p.id, { id: p.id, title: p.title || before?.title || '', change });
    }
  }
  return [...byId.values()];
}

/** One line saying what a session changed: "3 pages edited, 1 added". */
export function summarize(pages: Touched[]): string {
  const count = (c: Touched['change']) => pages.filter((p) => p.change === c).length;
  const parts = (['edited', 'added', 'removed'] as const).map((c) => [count(c), c] as const).filter(([n]) => n > 0);
  if (parts.length === 0) return 'No page changed';
  return parts.map(([n, c], i) => (i === 0 ? `${n} ${n === 1 ? 'page' : 'pages'} ${c}` : `${n} ${c}`)).join(', ');
}

/** Two letters for an avatar without a picture: "Ada Lovelace" → "AL". */
export function initials(name: string | null): string {
  const words = (name ?? '')
    .replace(/@.*/, '')
    .trim()
    .split(/[\s@._-]+/)
    .filter(Boolean);
  if (words.length === 0) return '?';
  const first = words[0] as string;
  const last = words.length > 1 ? (words[words.length - 1] as string) : '';
  return ((first[0] ?? '') + (last[0] ?? first[1] ?? '')).toUpperCase();
}

/** A colour of its own for each writer, stable across windows and machines. */
export function avatarHue(key: string): number {
  let h = 0;
  for (let i = 0; i < key.length; i++) h = (h * 31 + key.charCodeAt(i)) % 360;
  return h;
}
