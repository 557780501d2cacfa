import { createHash } from 'node:crypto';
import { renderMermaidSVG } from 'beautiful-mermaid';
import { LRUCache } from 'lru-cache';

/**
 * Mermaid diagrams drawn on the server (beautiful-mermaid: parser and ELK layout in pure
 * JavaScript, no browser). It draws flowcharts, sequence, state, class and ER diagrams and
 * XY charts; any other kind (pie, gantt, mindmap…) or a source it cannot parse gives
 * `undefined`, and callers show the source instead.
 *
 * The library styles its SVG with CSS custom properties and `color-mix()`, and imports a
 * web font. Here every colour is resolved to a plain value and the stylesheet dropped, so
 * the same SVG works as an `<img>` (which loads nothing from outside), in any browser, and
 * when rasterized by libvips for the PDF, which knows no CSS variables.
 */

export type DiagramTheme = 'light' | 'dark';

export interface Diagram {
  svg: string;
  width: number;
  height: number;
}

const PALETTES: Record<DiagramTheme, { bg: string; fg: string; accent: string }> = {
  light: { bg: '#ffffff', fg: '#1b1c1f', accent: '#346ddb' },
  dark: { bg: '#0f1115', fg: '#e8eaed', accent: '#6d9cf5' },
};

const FONT = "'Noto Sans', 'DejaVu Sans', system-ui, sans-serif";
const MONO_FONT = "'Noto Sans Mono', 'DejaVu Sans Mono', ui-monospace, monospace";

/** A longer source is not drawn: layout time grows fast with the number of nodes. */
export const MAX_DIAGRAM_SOURCE = 20_000;

/** `false`: this source cannot be drawn. */
const cache = new LRUCache<string, Diagram | false>({ max: 500 });

/** A short name of a diagram's source, for URLs that must find it again. */
export function diagramDigest(source: string): string {
  return createHash('sha256').update(source).digest('base64url').slice(0, 22);
}

/** The diagram as a self-contained SVG, or undefined when this kind of diagram cannot be drawn. */
export function mermaidDiagram(source: string, theme: DiagramTheme): Diagram | undefined {
  if (source.length > MAX_DIAGRAM_SOURCE || !source.trim()) return undefined;
  const key = `${theme}\t${diagramDigest(source)}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit || undefined;
  let out: Diagram | undefined;
  try {
    out = flatten(renderMermaidSVG(normalizeFlowchart(source), { ...PALETTES[theme], transparent: true }));
  } catch {
    out = undefined;
  }
  cache.set(key, out ?? false);
  return out;
}

/** Resolves the SVG's CSS variables to colours and drops its stylesheet; undefined if one cannot be resolved. */
export function flatten(svg: string): Diagram | undefined {
  const open = /^<svg\b[^>]*>/.exec(svg);
  if (!open) return undefined;
  const vars = new Map<string, string>();
  const rootStyle = /\sstyle="([^"]*)"/.exec(open[0])?.[1] ?? '';
  const styleBlock = /<style>([\s\S]*?)<\/style>/.exec(svg)?.[1] ?? '';
  for (const decl of `${rootStyle};${styleBlock.replace(/\/\*[\s\S]*?\*\//g, '')}`.matchAll(/(--[\w-]+)\s*:\s*([^;]+);?/g))
    vars.set(decl[1] as string, (decl[2] as string).trim());

  let unresolved = false;
  const resolveAll = (text: string) =>
    text.replace(/var\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)/g, (expr) => {
      const value = resolveColor(expr, vars, 0);
      if (!value) unresolved = true;
      return value ?? expr;
    });

  const width = Number(/\swidth="([\d.]+)"/.exec(open[0])?.[1]);
  const height = Number(/\sheight="([\d.]+)"/.exec(open[0])?.[1]);
  const root = open[0].replace(/\sstyle="[^"]*"/, '').replace(/>$/, ` font-family="${FONT}">`);
  const body = resolveAll(
    svg
      .slice(open[0].length)
      .replace(/<style>[\s\S]*?<\/style>/, '')
      .replace(/<text\b([^>]*\bclass="[^"]*\bmono\b[^"]*")/g, `<text$1 font-family="${MONO_FONT}"`),
  );
  if (unresolved || !(width > 0) || !(height > 0)) return undefined;
  return { svg: root + body, width: Math.ceil(width), height: Math.ceil(height) };
}

function resolveColor(expr: string, vars: Map<string, string>, depth: number): string | undefined {
  const e = expr.trim();
  if (depth > 10) return undefined;
  if (/^#[0-9a-f]{3,8}$/i.test(e) || /^[a-z]+$/i.test(e)) return e;
  const call = /^([\w-]+)\(([\s\S]*)\)$/.exec(e);
  if (!call) return undefined;
  const args = splitTopLevel(call[2] as string);
  if (call[1] === 'var') {
    const value = vars.get((args[0] as string).trim());
    if (value !== undefined) return resolveColor(value, vars, depth + 1);
    return args.length > 1 ? resolveColor(args.slice(1).join(','), vars, depth + 1) : undefined;
  }
  if (call[1] === 'color-mix' && args.length === 3 && (args[0] as string).trim() === 'in srgb') {
    const first = /^(.*?)\s+([\d.]+)%$/.exec((args[1] as string).trim());
    const a = first ? resolveColor(first[1] as string, vars, depth + 1) : undefined;
    const b = resolveColor(args[2] as string, vars, depth + 1);
    return a && b && first ? mix(a, b, Number(first[2]) / 100) : undefined;
  }
  return undefined;
}

function splitTopLevel(s: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '(') depth++;
    else if (s[i] === ')') depth--;
    else if (s[i] === ',' && depth === 0) {
      parts.push(s.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(s.slice(start));
  return parts;
}

function rgb(hex: string): [number, number, number] | undefined {
  const h = hex.replace('#', '');
  const full = h.length === 3 ? [...h].map((c) => c + c).join('') : h.slice(0, 6);
  if (!/^[0-9a-f]{6}$/i.test(full)) return undefined;
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as [number, number, number];
}

/** `color-mix(in srgb, a p, b)`: a weighted average of the channels. */
function mix(a: string, b: string, p: number): string | undefined {
  const [x, y] = [rgb(a), rgb(b)];
  if (!x || !y) return undefined;
  return `#${x
    .map((c, i) =>
      Math.round(c * p + (y[i] as number) * (1 - p))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

const ARROW = /^<?(?:-{2,}|={2,}|-\.+-)>?/;
const CLOSING: Record<string, string> = { '[': ']', '(': ')', '{': '}', '"': '"', '|': '|' };

/**
 * Flowchart sources as Mermaid reads them but the renderer's parser does not: statements
 * separated by `;` (`graph TD; A-->B`) and arrows written without spaces (`A-->B`, which it
 * would read as a node `A--`). Text inside labels, quotes and edge labels is left alone.
 */
export function normalizeFlowchart(source: string): string {
  const first = source.split('\n').find((l) => l.trim() && !l.trim().startsWith('%%')) ?? '';
  if (!/^\s*(graph|flowchart)\b/.test(first)) return source;
  let out = '';
  const open: string[] = [];
  for (let i = 0; i < source.length; i++) {
    const ch = source[i] as string;
    const inside = open.length > 0;
    if (inside) {
      if (ch === open[open.length - 1]) open.pop();
      else if (open[open.length - 1] !== '"' && ch in CLOSING && ch !== '|') open.push(CLOSING[ch] as string);
      out += ch;
      continue;
    }
    if (source.startsWith('%%', i)) {
      const end = source.indexOf('\n', i);
      const stop = end < 0 ? source.length : end;
      out += source.slice(i, stop);
      i = stop - 1;
      continue;
    }
    if (ch in CLOSING) {
      open.push(CLOSING[ch] as string);
      out += ch;
      continue;
    }
    if (ch === ';') {
      out += '\n';
      continue;
    }
    const arrow = ARROW.exec(source.slice(i, i + 40));
    if (arrow) {
      out += ` ${arrow[0]} `;
      i += arrow[0].length - 1;
      continue;
    }
    out += ch;
  }
  return out;
}
