/** How long a failing webhook keeps being tried before it is turned off. */
export const DISABLE_AFTER_MS = 24 * 60 * 60 * 1000;
/** The longest wait between two attempts. */
const MAX_DELAY_MS = 60 * 60 * 1000;

/**
 * The wait after the `attempt`-th failed attempt (1 for the first): `baseMs` doubling each
 * time up to an hour, with up to a fifth more at random so that the deliveries of a
 * receiver that was down do not all come back in the same second.
 */
export function retryDelay(attempt: number, baseMs: number, random: () => number = Math.random): number {
  const exp = Math.min(MAX_DELAY_MS, baseMs * 2 ** Math.min(30, Math.max(0, attempt - 1)));
  return Math.round(exp * (1 + random() / 5));
}
