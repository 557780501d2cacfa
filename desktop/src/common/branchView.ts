import type { NodeJSON } from '@quire/shared/content/json';
import type { Page } from '@quire/shared/content/pageRecord';

/**
 * What a window draws of a branch before it has decoded the branch's state: every page's
 * record (enough for the tree) and the body of the page the window opens first. Saved by
 * the LocalNode beside the snapshot it describes.
 */
export interface BranchView {
  pages: Page[];
  first: { id: string; body: NodeJSON } | null;
}
