import { isRecord, type MarkJSON, type NodeJSON } from './json';
import { normalizeBody } from './normalize';
import { refToTarget } from './gitbookDocument';
import { parseTarget } from './targets';

const MARK_FROM_GITBOOK: Record<string, string> = {
  bold: 'bold',
  italic: 'italic',
  code: 'code',
  strikethrough: 'strike',
  strike: 'strike',
};

/** A GitBook Document as a body, best effort: unknown blocks and inlines give up their content, never their text. */
export function gitbookDocumentToBody(document: unknown): NodeJSON {
  const nodes = isRecord(document) && Array.isArray(document.nodes) ? document.nodes : [];
  return normalizeBody({ type: 'doc', content: nodes.flatMap((node) => fromNode(node, [], 0)) });
}

const MAX_DEPTH = 128;

function fromNodes(nodes: unknown, marks: MarkJSON[], depth: number): NodeJSON[] {
  if (!Array.isArray(nodes) || depth > MAX_DEPTH) return [];
  return nodes.flatMap((node) => fromNode(node, marks, depth + 1));
}

function fromNode(node: unknown, marks: MarkJSON[], depth: number): NodeJSON[] {
  if (!isRecord(node)) return [];
  if (node.object === 'text') return fromLeaves(node, marks);
  const data = isRecord(node.data) ? node.data : {};
  const type = typeof node.type === 'string' ? node.type : '';
  const children = (): NodeJSON[] => fromNodes(node.nodes, [], depth);
  const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
  if (node.object === 'inline') {
    if (type === 'link') {
      const link: MarkJSON = { type: 'link', attrs: { href: refToTarget(data.ref) || str(data.url) || '', title: str(data.title) } };
      return fromNodes(node.nodes, [...marks, link], depth);
    }
    if (type === 'inline-math') return [{ type: 'mathInline', attrs: { tex: str(data.formula) ?? '' } }];
    if (type === 'html') return [{ type: 'htmlInline', attrs: { html: str(data.html) ?? '' } }];
    if (type === 'inline-image') {
      return [
        { type: 'inlineImage', attrs: { src: refToTarget(data.ref) || str(data.src) || '', alt: str(data.alt), title: str(data.title) } },
      ];
    }
    return fromNodes(node.nodes, marks, depth);
  }
  const heading = /^heading-(\d)$/.exec(type);
  if (heading) {
    const id = isRecord(node.meta) ? str(node.meta.id) : null;
    return [{ type: 'heading', attrs: { level: Number(heading[1]), id }, content: children() }];
  }
  switch (type) {
    case 'html':
      return [{ type: 'htmlBlock', attrs: { html: str(data.html) ?? '' } }];
    case 'math':
      return [{ type: 'math', attrs: { tex: str(data.formula) ?? '' } }];
    case 'columns':
      return [{ type: 'columns', content: children() }];
    case 'column':
      return [{ type: 'column', attrs: { width: data.width ?? null }, content: children() }];
    case 'updates':
      return [{ type: 'updates', content: children() }];
    case 'update':
      return [{ type: 'update', attrs: { date: str(data.date) ?? '', title: str(data.title) }, content: children() }];
    case 'openapi-operation': {
      const operation = isRecord(data.operation) ? data.operation : {};
      return [
        {
          type: 'openapiOperation',
          attrs: { spec: str(data.spec), src: str(data.src), path: str(operation.path) ?? '', method: str(operation.method) ?? 'get' },
        },
      ];
    }
    case 'reusable-content': {
      const ref = isRecord(data.ref) ? data.ref : {};
      return [{ type: 'reusableContent', attrs: { reusableContentId: str(ref.reusableContent), src: str(data.src) } }];
    }
    case 'paragraph':
      return [{ type: 'paragraph', content: children() }];
    case 'blockquote':
      return [{ type: 'blockquote', content: children() }];
    case 'list-unordered':
    case 'list-ordered':
    case 'list-tasks': {
      const items = Array.isArray(node.nodes) ? node.nodes : [];
      const tasks =
        type === 'list-tasks' || items.some((item) => isRecord(item) && isRecord(item.data) && typeof item.data.checked === 'boolean');
      const content = items.flatMap((item) => {
        if (!isRecord(item)) return [];
        const itemData = isRecord(item.data) ? item.data : {};
        const blocks = fromNodes(item.nodes, [], depth + 1);
        return [
          tasks
            ? { type: 'taskItem', attrs: { checked: itemData.checked === true }, content: blocks }
            : { type: 'listItem', content: blocks },
        ];
      });
      if (tasks) return [{ type: 'taskList', content }];
      return type === 'list-ordered'
        ? [{ type: 'orderedList', attrs: { start: data.start ?? 1 }, content }]
        : [{ type: 'bulletList', content }];
    }
    case 'code': {
      const lines = Array.isArray(node.nodes) ? node.nodes.map((line) => plainText(line)) : [];
      const text = lines.join('\n');
      return [
        {
          type: 'codeBlock',
          attrs: {
            language: str(data.syntax),
            title: str(data.title),
            lineNumbers: data.lineNumbers === true,
            wrap: data.overflow === 'wrap',
          },
          content: text ? [{ type: 'text', text }] : [],
        },
      ];
    }
    case 'hint':
      return [{ type: 'hint', attrs: { style: data.style }, content: children() }];
    case 'table-header':
    case 'table-cell':
      return [{ type: type === 'table-header' ? 'tableHeader' : 'tableCell', attrs: { align: data.align }, content: children() }];
    case 'table-row':
      return [{ type: 'tableRow', content: children() }];
    case 'table':
      return [{ type: 'table', content: children() }];
    case 'images':
      return children();
    case 'image':
      return [
        {
          type: 'image',
          attrs: {
            src: refToTarget(data.ref) || str(data.src) || '',
            srcDark: data.refDark ? refToTarget(data.refDark) || null : null,
            alt: str(data.alt),
            caption: captionText(data.caption),
            width: data.width ?? null,
          },
        },
      ];
    case 'file': {
      const target = refToTarget(data.ref);
      const parsed = parseTarget(target);
      return [
        {
          type: 'file',
          attrs: {
            fileId: parsed.kind === 'file' ? parsed.fileId : null,
            src: parsed.kind === 'file' ? null : target || null,
            caption: captionText(data.caption),
          },
        },
      ];
    }
    case 'divider':
      return [{ type: 'horizontalRule' }];
    case 'tabs':
      return [{ type: 'tabs', content: children() }];
    case 'tabs-item':
      return [{ type: 'tab', attrs: { title: str(data.title) ?? '' }, content: children() }];
    case 'expandable': {
      const parts = Array.isArray(node.nodes) ? node.nodes.filter(isRecord) : [];
      const title = parts.find((part) => part.type === 'expandable-title');
      const body = parts.find((part) => part.type === 'expandable-body');
      const summary = title ? plainText(title) : '';
      return [
        {
          type: 'details',
          content: [
            { type: 'detailsSummary', content: summary ? [{ type: 'text', text: summary }] : [] },
            { type: 'detailsContent', content: body ? fromNodes(body.nodes, [], depth) : [] },
          ],
        },
      ];
    }
    case 'embed':
      return [{ type: 'embed', attrs: { url: str(data.url) ?? '', caption: captionText(data.caption) } }];
    case 'content-ref':
      return [{ type: 'contentRef', attrs: { href: refToTarget(data.ref) || str(data.url) || '', title: str(data.title) } }];
    case 'stepper':
      return [{ type: 'stepper', content: children() }];
    case 'stepper-step':
      return [{ type: 'step', content: children() }];
    default:
      return children();
  }
}

function fromLeaves(node: Record<string, unknown>, outer: MarkJSON[]): NodeJSON[] {
  const leaves = Array.isArray(node.leaves) ? node.leaves : typeof node.text === 'string' ? [{ text: node.text, marks: node.marks }] : [];
  const out: NodeJSON[] = [];
  for (const item of leaves) {
    if (!isRecord(item) || typeof item.text !== 'string') continue;
    const marks = [...outer];
    for (const mark of Array.isArray(item.marks) ? item.marks : []) {
      const name = isRecord(mark) && typeof mark.type === 'string' ? MARK_FROM_GITBOOK[mark.type] : undefined;
      if (name) marks.push({ type: name });
    }
    item.text.split('\n').forEach((part, i) => {
      if (i > 0) out.push({ type: 'hardBreak' });
      if (part) out.push(marks.length > 0 ? { type: 'text', text: part, marks } : { type: 'text', text: part });
    });
  }
  return out;
}

function plainText(node: unknown): string {
  if (!isRecord(node)) return '';
  if (node.object === 'text') {
    const leaves = Array.isArray(node.leaves) ? node.leaves : [];
    return leaves.map((item) => (isRecord(item) && typeof item.text === 'string' ? item.text : '')).join('');
  }
  return Array.isArray(node.nodes) ? node.nodes.map(plainText).join('') : '';
}

/** GitBook captions are sometimes plain strings, sometimes documents of their own. */
function captionText(caption: unknown): string | null {
  if (typeof caption === 'string') return caption || null;
  if (isRecord(caption)) return plainText(caption) || null;
  return null;
}
