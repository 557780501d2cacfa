/**
 * A URL as the server shows or records it: credentials it carries (`https://user:pass@host/…`)
 * become `***`, the rest stays as given. Such a URL is used as it is (a webhook delivery signs
 * in with them); what admins read back, and the errors of fetches, never hold them.
 */
export function shownUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not a URL to parse, but it may still read as one to whoever sees it.
    return url.replace(/^([a-z][\w+.-]*:\/\/)[^/?#]*@/i, '$1***@');
  }
  if (!parsed.username && !parsed.password) return url;
  parsed.username = '***';
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}
