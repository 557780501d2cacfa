import { setPageMarkdown } from '@quire/shared/content/body';
import { type CreatePageInput, createPage, updatePage } from '@quire/shared/content/pages';
import { editBranch } from '../core/content/revisions';
import type { Db } from '../store/db';

/**
 * Writes pages into a space's main branch the way any server-side edit does (update log,
 * then a revision), for tests and benchmarks of published sites. Returns the page ids.
 */
export async function writePages(db: Db, spaceId: string, pages: (CreatePageInput & { parentTitle?: string })[]): Promise<string[]> {
  const { result } = await db.transaction((tx) =>
    editBranch(tx, { spaceId }, (doc) => {
      const ids: string[] = [];
      const byTitle = new Map<string, string>();
      for (const { parentTitle, ...p } of pages) {
        const id = createPage(doc, { ...p, parent: parentTitle ? byTitle.get(parentTitle) : p.parent });
        byTitle.set(p.title, id);
        ids.push(id);
      }
      return ids;
    }),
  );
  return result;
}

/** Replaces one page's body (and optionally fields), cutting a new revision. */
export async function rewritePage(db: Db, spaceId: string, pageId: string, markdown: string, fields: { title?: string } = {}) {
  await db.transaction((tx) =>
    editBranch(tx, { spaceId }, (doc) => {
      setPageMarkdown(doc, pageId, markdown);
      if (fields.title) updatePage(doc, pageId, fields);
    }),
  );
}

/**
 * A page body as an editor could write it (ProseMirror JSON, not markdown), with script
 * hidden in every attribute and mark the renderer reads. None of it may run.
 */
export function xssDocument() {
  const text = (t: string, marks?: unknown[]) => ({ type: 'text', text: t, ...(marks ? { marks } : {}) });
  const link = (href: string) => [{ type: 'link', attrs: { href } }];
  return {
    type: 'doc',
    content: [
      { type: 'heading', attrs: { level: 2 }, content: [text('<script>alert("heading")</script>')] },
      {
        type: 'paragraph',
        content: [
          text('js link', link('javascript:window.__xss="mark";alert(1)')),
          text(' '),
          text('spaced', link(' \tjavascript:alert(2)')),
          text(' '),
          text('data', link('data:text/html,<script>alert(3)</script>')),
          text(' '),
          text('vb', link('vbscript:msgbox(4)')),
        ],
      },
      { type: 'paragraph', content: [{ type: 'inlineImage', attrs: { src: 'javascript:alert(5)', alt: '" onerror="alert(6)' } }] },
      {
        type: 'image',
        attrs: {
          src: 'https://example.com/x.png" onerror="alert(7)',
          alt: '"><script>alert(8)</script>',
          caption: '<img src=x onerror=alert(9)>',
        },
      },
      {
        type: 'codeBlock',
        attrs: { language: '"><script>alert(10)</script>', title: '<b onmouseover=alert(11)>t</b>' },
        content: [text('</code><script>alert(12)</script>')],
      },
      { type: 'hint', attrs: { style: 'info" onmouseover="alert(13)' }, content: [{ type: 'paragraph', content: [text('hint')] }] },
      { type: 'embed', attrs: { url: 'javascript:alert(14)', caption: 'embed' } },
      { type: 'contentRef', attrs: { href: 'javascript:alert(15)', title: 'ref' } },
      {
        type: 'tabs',
        content: [
          { type: 'tab', attrs: { title: '<img src=x onerror=alert(16)>' }, content: [{ type: 'paragraph', content: [text('tab body')] }] },
        ],
      },
    ],
  };
}
