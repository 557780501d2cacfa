import { AnchorAllocator, headingText } from './anchors';
import { withoutIconCodes } from './iconCodes';
import type { NodeJSON } from './json';

/** A stretch of a page between headings: what search indexes and shows as one hit. */
export interface BodySection {
  /** Anchor of the heading that opens the section; null for text before the first heading. */
  anchor: string | null;
  /** The heading's text; '' for text before the first heading. */
  title: string;
  /** Heading level; 0 for text before the first heading. */
  level: number;
  /** Plain text of the section's blocks, one block a line. */
  text: string;
}

/** The whole body as plain text, one block a line: for search and previews. */
export function bodyText(body: NodeJSON): string {
  const lines: string[] = [];
  collectLines(body, lines, () => undefined);
  return lines.join('\n');
}

/**
 * The body split at every heading (nested ones included), with anchors matching
 * `headingAnchors`, so a search hit can link straight to its heading.
 */
export function bodySections(body: NodeJSON): BodySection[] {
  const anchors = new AnchorAllocator();
  const sections: BodySection[] = [];
  let current: { anchor: string | null; title: string; level: number; lines: string[] } = {
    anchor: null,
    title: '',
    level: 0,
    lines: [],
  };
  const finish = (): void => {
    if (current.anchor !== null || current.lines.length > 0) {
      sections.push({ anchor: current.anchor, title: current.title, level: current.level, text: current.lines.join('\n') });
    }
  };
  collectLines(body, current.lines, (heading) => {
    finish();
    const title = headingText(heading);
    current = {
      anchor: anchors.next(title, typeof heading.attrs?.id === 'string' ? heading.attrs.id : null),
      title,
      level: Number(heading.attrs?.level ?? 1),
      lines: [],
    };
    return current.lines;
  });
  finish();
  return sections;
}

/**
 * Pushes each block's text as a line. `onHeading` is told about headings; when it returns
 * an array, the following lines go there instead.
 */
function collectLines(node: NodeJSON, initial: string[], onHeading: (heading: NodeJSON) => string[] | undefined): void {
  let lines = initial;
  const push = (text: string | null | undefined): void => {
    const trimmed = (text ?? '').trim();
    if (trimmed) lines.push(trimmed);
  };
  const walk = (block: NodeJSON): void => {
    const attrs = block.attrs ?? {};
    switch (block.type) {
      case 'heading': {
        const target = onHeading(block);
        if (target) lines = target;
        else push(headingText(block));
        return;
      }
      case 'paragraph':
      case 'detailsSummary':
        push(inlineTextOf(block, '\n'));
        return;
      case 'codeBlock':
        push(attrs.title as string);
        push(inlineTextOf(block, '\n'));
        return;
      case 'image':
        push(attrs.alt as string);
        push(attrs.caption as string);
        return;
      case 'file':
      case 'embed':
        push(attrs.caption as string);
        return;
      case 'contentRef':
        push(attrs.title as string);
        return;
      case 'tableRow':
        push((block.content ?? []).map((cell) => blockText(cell)).join(' | '));
        return;
      case 'tab':
        push(attrs.title as string);
        break;
    }
    block.content?.forEach(walk);
  };
  walk(node);
}

function blockText(node: NodeJSON): string {
  if (node.type === 'paragraph' || node.type === 'heading' || node.type === 'codeBlock') return inlineTextOf(node, ' ');
  return (node.content ?? []).map(blockText).filter(Boolean).join(' ');
}

function inlineTextOf(node: NodeJSON, lineBreak: string): string {
  let text = '';
  // Icon codes are pictures in prose; a code block's text is verbatim.
  const prose = node.type !== 'codeBlock';
  for (const child of node.content ?? []) {
    if (child.type === 'text')
      text += prose && !child.marks?.some((m) => m.type === 'code') ? withoutIconCodes(child.text ?? '') : (child.text ?? '');
    else if (child.type === 'hardBreak') text += lineBreak;
    else if (child.type === 'inlineImage') text += typeof child.attrs?.alt === 'string' ? child.attrs.alt : '';
  }
  return text;
}
