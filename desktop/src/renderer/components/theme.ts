/**
 * Light or dark: the system's choice unless the writer picked one. The choice is kept
 * with the window's other preferences (localStorage, which the app keeps across
 * restarts) and applied as `data-theme` on the root before the first frame.
 */
export type ThemeChoice = 'system' | 'light' | 'dark';

const KEY = 'quire.theme';
const listeners = new Set<() => void>();
let media: MediaQueryList | null = null;

export function themeChoice(): ThemeChoice {
  try {
    const saved = localStorage.getItem(KEY);
    return saved === 'light' || saved === 'dark' ? saved : 'system';
  } catch {
    return 'system';
  }
}

function apply(): void {
  const choice = themeChoice();
  const dark = choice === 'dark' || (choice === 'system' && !!media?.matches);
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
  for (const l of listeners) l();
}

export function setThemeChoice(choice: ThemeChoice): void {
  if (choice === 'system') localStorage.removeItem(KEY);
  else localStorage.setItem(KEY, choice);
  apply();
}

export function onThemeChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Applies the theme now and follows the system's changes while the choice is "system". */
export function startTheme(): void {
  media = window.matchMedia('(prefers-color-scheme: dark)');
  media.addEventListener('change', apply);
  apply();
}
