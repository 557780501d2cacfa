import { bodyToGitbookDocument, bodyToMarkdown, gitbookDocumentToBody, markdownToBody, normalizeBody } from '@quire/shared/content/index';
import type { CommentBodyInput, CommentFormat } from '@quire/shared/schemas/comment';
import { MAX_COMMENT_MARKDOWN } from '@quire/shared/schemas/comment';

/** A body that cannot be stored; the message names the field. */
export class BodyError extends Error {}

/**
 * The markdown a comment body is kept as. A document (a GitBook Document with
 * `object: "document"`, or ProseMirror JSON of the page body schema) is written as
 * markdown through the content model, so both forms read back either way.
 */
export function storedBody(input: CommentBodyInput): string {
  if ('markdown' in input) return input.markdown;
  const doc = input.document;
  const body = doc.object === 'document' ? gitbookDocumentToBody(doc) : normalizeBody(doc);
  const markdown = bodyToMarkdown(body).trim();
  if (!markdown) throw new BodyError('Invalid body field "body.document": the document has no content.');
  if (markdown.length > MAX_COMMENT_MARKDOWN)
    throw new BodyError(`Invalid body field "body.document": longer than ${MAX_COMMENT_MARKDOWN} characters as markdown.`);
  return markdown;
}

/** `body` as a comment or reply shows it: markdown, or the GitBook Document the markdown makes. */
export function presentBody(markdown: string, format: CommentFormat = 'markdown'): { markdown?: string; document?: unknown } {
  if (format === 'document') return { document: bodyToGitbookDocument(markdownToBody(markdown).doc) };
  return { markdown };
}
