import MarkdownIt from 'markdown-it';
import { isSafeUrl } from '../targets';
import { gitbookBlocks } from './gitbookBlocks';

/** The markdown parser of imports: CommonMark with tables, strikethrough and GitBook's blocks. */
export const markdownIt = new MarkdownIt('commonmark', { html: true }).enable(['table', 'strikethrough']).use(gitbookBlocks);
// markdown-it refuses `file:` outright; ours allows the `file:<fileId>` space references and still refuses scripts
markdownIt.validateLink = isSafeUrl;
// targets are kept as written (a git path with a space stays one): renderers encode them for HTML
markdownIt.normalizeLink = (url) => url;
markdownIt.normalizeLinkText = (text) => text;
