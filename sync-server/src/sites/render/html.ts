/** Escaping for HTML text and attribute values: every dynamic string goes through one of these. */
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function esc(s: unknown): string {
  return String(s ?? '').replace(/[&<>"']/g, (c) => ENTITIES[c] as string);
}

/** A URL for an href/src attribute: only http(s), mailto, tel, fragments and paths; anything else becomes `#`. */
export function safeHref(url: string | undefined | null): string {
  if (!url) return '#';
  // Browsers ignore control characters and spaces inside a scheme: so must the check.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: they are what is removed
  const compact = url.replace(/[\u0000-\u0020\u007f-\u009f]/g, '');
  // Browsers read `\` as `/` in URLs, so `/\host` is as protocol-relative as `//host`.
  if (/^(https?:|mailto:|tel:)/i.test(compact) || (/^[/#?]/.test(compact) && !/^[/\\][/\\]/.test(compact))) return esc(url);
  return '#';
}
