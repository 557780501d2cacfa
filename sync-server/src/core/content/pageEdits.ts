import { notFound } from '@quire/shared/domainErrors';
import { setPageMarkdown } from '@quire/shared/content/body';
import { createPage, getPage, updatePage } from '@quire/shared/content/pages';
import type { Queryable } from '../../store/db';
import type { Branch } from './branches';
import { lockActiveBranch } from './changeRequests';
import { editBranch } from './revisions';

export interface PageMarkdownEdit {
  /** The page whose body is replaced; without it a page is added. */
  pageId?: string;
  title?: string;
  /** Parent of an added page. */
  parentPageId?: string;
  markdown: string;
}

/**
 * Writes a page's whole body from markdown into a branch (main, or an active change
 * request), as any editor's edit: through the update log, then a revision. Returns the
 * page id and the revision. An unknown page or parent changes nothing.
 */
export async function writePageMarkdown(tx: Queryable, branch: Branch, edit: PageMarkdownEdit, userId: string) {
  await lockActiveBranch(tx, branch);
  const { result, revision } = await editBranch(
    tx,
    branch,
    (doc) => {
      if (edit.pageId) {
        if (!getPage(doc, edit.pageId)) throw notFound('page');
        setPageMarkdown(doc, edit.pageId, edit.markdown);
        if (edit.title) updatePage(doc, edit.pageId, { title: edit.title });
        return edit.pageId;
      }
      if (edit.parentPageId && !getPage(doc, edit.parentPageId)) throw notFound('parent page');
      return createPage(doc, { title: edit.title ?? 'Untitled', markdown: edit.markdown, parent: edit.parentPageId ?? null });
    },
    { type: 'edits', createdBy: userId },
  );
  return { pageId: result, revision: revision.id };
}
