import { DomainError } from '@quire/shared/domainErrors';
import type { Queryable } from '../../store/db';
import { clearFailures, lockedUntil, purgeOldFailures, recordFailure } from '../../store/passwordFailures';

/**
 * Beyond the rate limit (per client address), wrong passwords are counted per email
 * address: ten within fifteen minutes lock that address's password sign-in, and the change
 * of its password, for fifteen minutes. Unknown addresses are counted and locked alike, so
 * the lockout never tells whether an account exists.
 */
export const LOCKOUT = { limit: 10, windowMs: 15 * 60 * 1000, lockMs: 15 * 60 * 1000 };

export const LOCKED_MESSAGE =
  'Too many wrong passwords for this email address: signing in with a password is paused for 15 minutes. ' +
  'Try again later, or ask an administrator of this server to set a new password.';

/** The refusal of a locked address: rate limited, with when to try again. */
export function lockedError(until: Date): DomainError {
  const seconds = Math.max(1, Math.ceil((until.getTime() - Date.now()) / 1000));
  return new DomainError('rate_limited', LOCKED_MESSAGE, seconds);
}

/** Until when the address is locked (old rows are dropped on the way); undefined when it is not. */
export async function passwordLockedUntil(db: Queryable, email: string): Promise<Date | undefined> {
  await purgeOldFailures(db, LOCKOUT.windowMs);
  return lockedUntil(db, email);
}

/** Counts a wrong password; until when this one locked the address, if it did. */
export function countWrongPassword(db: Queryable, email: string): Promise<Date | undefined> {
  return recordFailure(db, email, LOCKOUT);
}

/** A right password, or one set anew: the address's count starts again. */
export function forgetWrongPasswords(db: Queryable, email: string): Promise<void> {
  return clearFailures(db, email);
}
