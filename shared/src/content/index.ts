/**
 * The content model: the one place that knows the layout of a branch Y.Doc and the
 * page body schema. The server, the desktop app and tests read and write content only
 * through these exports.
 */
export { type HeadingAnchor, headingAnchors } from './anchors';
export { getPageDocument, getPageMarkdown, type PageMarkdownOptions, readBody, setPageDocument, setPageMarkdown, writeBody } from './body';
export { type BranchContent, readBranch } from './branch';
export { ContentError, ContentErrorCode } from './errors';
export { evaluateText, evaluateVariables, type VariableScopes } from './expressions';
export { addFile, type FileInfo, getFile, listFiles, removeFile, updateFile } from './files';
export {
  bodyToGitbookDocument,
  type GitbookBlock,
  type GitbookDocument,
  type GitbookInline,
  type GitbookLeaf,
  type GitbookNode,
  type GitbookRef,
  type GitbookText,
  refToTarget,
  targetToRef,
} from './gitbookDocument';
export { gitbookDocumentToBody } from './fromGitbookDocument';
export type { JsonValue, MarkJSON, NodeJSON } from './json';
export { BranchMap, PageKey } from './layout';
export { type BodyLink, extractLinks, findBacklinks, rewriteTargets } from './links';
export type { FrontMatter } from './markdown/frontMatter';
export { type MarkdownImport, markdownToBody } from './markdown/parse';
export { bodyToMarkdown, type MarkdownOptions } from './markdown/serialize';
export { emptyBody, normalizeBody, toBodyNode } from './normalize';
export { type GitSource, PAGE_TYPES, type Page, type PageType } from './pageRecord';
export {
  type GitFileBaseline,
  type PageGitBaseline,
  readPageGitBaseline,
  readReusableContentGit,
  readSummaryBaseline,
  setReusableContentGit,
  setPageGitBaseline,
  setSummaryBaseline,
} from './gitBaseline';
export {
  type CreatePageInput,
  createPage,
  createPages,
  deletePage,
  getPage,
  listPages,
  movePage,
  type PageFields,
  type PagePosition,
  updatePage,
} from './pages';
export {
  createReusableContent,
  deleteReusableContent,
  getReusableContent,
  getReusableContentDocument,
  getReusableContentMarkdown,
  listReusableContents,
  type ReusableContent,
  renameReusableContent,
  setReusableContentDocument,
  setReusableContentMarkdown,
} from './reusableContents';
export { type PageRestore, markPageRestored, pageRestoredFrom } from './restores';
export { bodySchema, HINT_STYLES, type HintStyle, MAX_HEADING_LEVEL } from './schema';
export { pageSlug, slugify, uniqueSlug } from './slugs';
export { fileTarget, isSafeUrl, pageTarget, parseTarget, type Target, type TargetKind } from './targets';
export { type BodySection, bodySections, bodyText } from './text';
export { findPageByPath, flattenPageTree, type PageTreeNode, pagePath, pageTree } from './tree';
export { deleteVariable, getVariable, getVariables, replaceVariables, setVariable, VARIABLE_NAME } from './variables';
