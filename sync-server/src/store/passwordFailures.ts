import type { Queryable } from './db';

/**
 * Wrong passwords per email address (`password_failures`), for the lockout that stops
 * guessing beyond what the rate limit allows. Keyed by the lower-cased address, known or
 * not, so a locked address says nothing about whether its account exists.
 */

const key = (email: string) => email.trim().toLowerCase();

/** Until when the address's password sign-in is locked; undefined when it is not. */
export async function lockedUntil(db: Queryable, email: string): Promise<Date | undefined> {
  const rows = await db.query<{ locked_until: Date }>(
    'SELECT locked_until FROM password_failures WHERE email = $1 AND locked_until > now()',
    [key(email)],
  );
  return rows[0]?.locked_until;
}

/**
 * Counts one wrong password in the window that started with the first one (a window over
 * starts again); the `limit`-th locks the address for `lockMs` and starts the count afresh.
 * One statement each, so instances racing on the same address count every failure. Answers
 * until when the address is now locked, if this failure locked it.
 */
export async function recordFailure(
  db: Queryable,
  email: string,
  rule: { limit: number; windowMs: number; lockMs: number },
): Promise<Date | undefined> {
  const counted = await db.query<{ failures: number }>(
    `INSERT INTO password_failures AS f (email, failures, first_failed_at) VALUES ($1, 1, now())
     ON CONFLICT (email) DO UPDATE SET
       failures = CASE WHEN f.first_failed_at <= now() - $2::double precision * interval '1 millisecond' THEN 1 ELSE f.failures + 1 END,
       first_failed_at = CASE WHEN f.first_failed_at <= now() - $2::double precision * interval '1 millisecond' THEN now() ELSE f.first_failed_at END
     RETURNING failures`,
    [key(email), rule.windowMs],
  );
  if ((counted[0]?.failures ?? 0) < rule.limit) return undefined;
  const locked = await db.query<{ locked_until: Date }>(
    `UPDATE password_failures SET failures = 0, first_failed_at = now(), locked_until = now() + $2::double precision * interval '1 millisecond'
     WHERE email = $1 RETURNING locked_until`,
    [key(email), rule.lockMs],
  );
  return locked[0]?.locked_until;
}

/** A right password or a new one set: the address starts with no failures and no lock. */
export async function clearFailures(db: Queryable, email: string): Promise<void> {
  await db.query('DELETE FROM password_failures WHERE email = $1', [key(email)]);
}

/** Drops rows whose window and lock are both over. */
export async function purgeOldFailures(db: Queryable, windowMs: number): Promise<void> {
  await db.query(
    `DELETE FROM password_failures
     WHERE first_failed_at < now() - $1::double precision * interval '1 millisecond' AND (locked_until IS NULL OR locked_until < now())`,
    [windowMs],
  );
}
