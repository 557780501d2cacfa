import type { NodeJSON } from '@quire/shared/content/json';
import type { PdfResources } from './model';
import type { Writer } from './writer';

export const pageDest = (pageId: string, anchor?: string | null) => (anchor ? `p/${pageId}#${anchor}` : `p/${pageId}`);

/** What block drawing needs besides the writer: where links go and what the body refers to. */
export interface RenderContext {
  w: Writer;
  res: PdfResources;
  pageId: string;
  /** Anchor of each heading node, computed before drawing so links can point forward. */
  anchors: Map<NodeJSON, string>;
  /** Every destination the document will hold. */
  dests: Set<string>;
  /** Bookmark of the page being drawn; its headings go under it. */
  outline?: PDFKit.PDFOutline;
  /** Reusable content inside reusable content stops here. */
  nesting: number;
}
