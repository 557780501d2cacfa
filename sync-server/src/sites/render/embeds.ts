/**
 * What an embed card says about its URL: the provider, and for video hosts the address of
 * their player (the site's script swaps the card for it on demand; without script the
 * card is a link).
 */
const PROVIDERS: [RegExp, string][] = [
  [/(^|\.)youtube\.com$|^youtu\.be$/, 'YouTube'],
  [/(^|\.)vimeo\.com$/, 'Vimeo'],
  [/(^|\.)loom\.com$/, 'Loom'],
  [/(^|\.)github\.com$/, 'GitHub'],
  [/(^|\.)gitlab\.com$/, 'GitLab'],
  [/(^|\.)figma\.com$/, 'Figma'],
  [/(^|\.)codepen\.io$/, 'CodePen'],
  [/(^|\.)codesandbox\.io$/, 'CodeSandbox'],
  [/(^|\.)twitter\.com$|(^|\.)x\.com$/, 'X'],
  [/(^|\.)google\.com$/, 'Google'],
  [/(^|\.)miro\.com$/, 'Miro'],
  [/(^|\.)replit\.com$/, 'Replit'],
];

export interface EmbedInfo {
  provider: string;
  host: string;
  /** Player URL of a known video host. */
  player?: string;
}

export const PLAYER_ORIGINS = ['https://www.youtube-nocookie.com', 'https://player.vimeo.com'];

export function embedInfo(url: string): EmbedInfo | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  const host = u.hostname.replace(/^www\./, '');
  const provider = PROVIDERS.find(([re]) => re.test(host))?.[1] ?? host;
  let player: string | undefined;
  if (provider === 'YouTube') {
    const id = host === 'youtu.be' ? u.pathname.slice(1) : u.pathname.startsWith('/embed/') ? u.pathname.slice(7) : u.searchParams.get('v');
    if (id && /^[\w-]{6,20}$/.test(id)) player = `https://www.youtube-nocookie.com/embed/${id}`;
  } else if (provider === 'Vimeo') {
    const id = u.pathname.split('/').filter(Boolean).pop();
    if (id && /^\d{3,15}$/.test(id)) player = `https://player.vimeo.com/video/${id}`;
  }
  return { provider, host, player };
}
