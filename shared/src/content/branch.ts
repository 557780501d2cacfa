import type * as Y from 'yjs';
import { type FileInfo, listFiles } from './files';
import { listReusableContents, type ReusableContent } from './reusableContents';
import { type PageTreeNode, pageTree } from './tree';
import { getVariables } from './variables';

/** Everything in a branch but the page bodies: what a revision's materialized JSON is built from. */
export interface BranchContent {
  pages: PageTreeNode[];
  files: FileInfo[];
  reusableContents: ReusableContent[];
  variables: Record<string, string>;
}

export function readBranch(doc: Y.Doc): BranchContent {
  return {
    pages: pageTree(doc),
    files: listFiles(doc),
    reusableContents: listReusableContents(doc),
    variables: getVariables(doc),
  };
}
