import type { NodeJSON } from '@quire/shared/content/json';

export interface PdfPage {
  id: string;
  title: string;
  /** Nesting in the page tree, for the contents and the bookmarks. */
  depth: number;
  description?: string | null;
  body: NodeJSON;
}

/**
 * An image ready to embed (PNG or JPEG; `scale` pixels per CSS pixel when it was drawn
 * larger than its size, as SVG is), or why it cannot be.
 */
export type PdfImage = { data: Buffer; scale?: number } | { unsupported: string };

/**
 * What the body refers to outside itself, looked up before drawing starts (drawing is
 * synchronous): image bytes, file links, reusable content, OpenAPI operations.
 */
export interface PdfResources {
  /** By `src` as written in the body (`file:<id>`, `data:` URL, URL). */
  images: Map<string, PdfImage>;
  /** Signed download link and name of each space file by id. */
  files: Map<string, { url: string; name: string }>;
  /** Body of a reusable content block, by its node's `reusableContentId`. */
  reusable: Map<string, NodeJSON>;
  /** Body of an `openapiOperation` block, keyed by `spec|src method path`. */
  operations: Map<string, NodeJSON>;
  /** Mermaid diagrams drawn as images, by source (see diagrams.ts). */
  diagrams: Map<string, PdfImage>;
  /** Title of every page of the space by id, in or out of the PDF: links written as a file path print as it. */
  pageTitles: Map<string, string>;
}

export interface PdfInput {
  title: string;
  /** A line under the title on the cover (the space or change request it comes from). */
  subtitle?: string;
  pages: PdfPage[];
  resources?: Partial<PdfResources>;
}

export function operationKey(attrs: Record<string, unknown> | undefined): string {
  const a = attrs ?? {};
  return `${String(a.spec ?? a.src ?? '')}|${String(a.method ?? '').toLowerCase()} ${String(a.path ?? '')}`;
}

export function emptyResources(): PdfResources {
  return { images: new Map(), files: new Map(), reusable: new Map(), operations: new Map(), diagrams: new Map(), pageTitles: new Map() };
}
