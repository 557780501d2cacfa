/**
 * GitBook's icon codes: `:hand-pointer:` written in text, as GitBook's editor shows an
 * icon (its git sync writes `<i class="fa-hand-pointer">:hand-pointer:</i>`, the code in
 * the `<i>` being the fallback text). Only a code standing as a word of its own counts,
 * so `10:30:00`, `std::map` or `a:b:c` stay text.
 */
const ICON_CODE = /(^|[\s([{"'])(:([a-z0-9]+(?:-[a-z0-9]+)*):)(?=$|[\s.,;!?)\]}"'])/g;

export interface IconCodePart {
  text?: string;
  icon?: string;
}

/** Text split into plain runs and icon names, in order. */
export function splitIconCodes(text: string): IconCodePart[] {
  if (!text.includes(':')) return [{ text }];
  const parts: IconCodePart[] = [];
  let last = 0;
  for (const m of text.matchAll(ICON_CODE)) {
    const name = m[3] as string;
    if (!/[a-z]/.test(name) || name.length > 48) continue;
    const start = (m.index ?? 0) + (m[1] as string).length;
    if (start > last) parts.push({ text: text.slice(last, start) });
    parts.push({ icon: name });
    last = start + (m[2] as string).length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}

/** Text without its icon codes, spaces they leave doubled collapsed: titles, anchors, search. */
export function withoutIconCodes(text: string): string {
  const parts = splitIconCodes(text);
  if (parts.length === 1 && parts[0]?.text !== undefined) return text;
  return parts
    .map((p) => p.text ?? '')
    .join('')
    .replace(/ {2,}/g, ' ');
}

/**
 * The icon an `<i>`'s classes name (`fa-hand-pointer`, `fa-solid fa-globe`, `fas fa-code`),
 * and the style they ask for; classes that size or animate (`fa-fw`, `fa-2x`) are not names.
 */
export function iconOfClasses(classes: readonly string[]): { name: string; style?: 'solid' | 'regular' | 'brands' } | undefined {
  let style: 'solid' | 'regular' | 'brands' | undefined;
  let name: string | undefined;
  for (const c of classes) {
    if (c === 'fas' || c === 'fa-solid') style = 'solid';
    else if (c === 'far' || c === 'fa-regular') style = 'regular';
    else if (c === 'fab' || c === 'fa-brands') style = 'brands';
    else if (c.startsWith('fa-') && !MODIFIERS.test(c.slice(3))) name ??= c.slice(3);
  }
  return name ? { name, ...(style ? { style } : {}) } : undefined;
}

const MODIFIERS =
  /^(solid|regular|brands|light|thin|duotone|sharp|sharp-duotone|classic|fw|xs|sm|lg|xl|2xs|2xl|\d+x|spin|spin-pulse|spin-reverse|pulse|beat|beat-fade|bounce|fade|flip|flip-horizontal|flip-vertical|flip-both|shake|border|inverse|li|ul|stack|stack-1x|stack-2x|pull-left|pull-right|pull-start|pull-end|rotate-90|rotate-180|rotate-270|rotate-by|swap-opacity|width-auto|width-fixed)$/;
