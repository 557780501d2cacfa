import { getPageDocument } from '@quire/shared/content/body';
import { listPages } from '@quire/shared/content/pages';
import type * as Y from 'yjs';
import type { BranchView } from '../common/branchView';

/**
 * The view a window draws of `doc` before decoding it: the pages in tree order and the
 * first one's body (a page showing something else than its body, such as a computed
 * page, has none here and waits for the doc).
 */
export function branchView(doc: Y.Doc): BranchView {
  const pages = listPages(doc);
  const first = pages[0];
  const showsBody = first && first.type === 'document' && !first.computed;
  return { pages, first: showsBody ? { id: first.id, body: getPageDocument(doc, first.id) } : null };
}
