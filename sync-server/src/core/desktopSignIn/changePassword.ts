import { badRequest, forbidden } from '@quire/shared/domainErrors';
import { type ChangePasswordBody, MIN_PASSWORD_LENGTH } from '@quire/shared/schemas/user';
import * as store from '../../store/desktopSignIns';
import { getUserByEmail } from '../../store/users';
import type { CommandContext, PublicContext } from '../platform/deps';
import { countWrongPassword, forgetWrongPasswords, lockedError, passwordLockedUntil } from './lockout';
import { hashPassword, verifyPassword } from './passwords';

/** How a change of password went: done, or why not (a reason reads after "the new password"). */
export type PasswordChange = { kind: 'done' } | { kind: 'mismatch' } | { kind: 'locked'; until: Date } | { kind: 'weak'; reason: string };

/** Why a new password is refused, if it is. */
function weakness(next: string, current: string, email: string): string | undefined {
  if (next.length < MIN_PASSWORD_LENGTH) return `must be at least ${MIN_PASSWORD_LENGTH} characters`;
  if (new Set(next).size < 5) return 'is too easy to guess: use at least 5 different characters';
  if (next.normalize('NFC') === current.normalize('NFC')) return 'is your current password; choose a new one';
  const name = email.split('@')[0]!.toLowerCase();
  if (name.length >= 4 && next.toLowerCase().includes(name)) return 'contains your email address; choose one harder to guess';
  return undefined;
}

/**
 * Replaces the password of the account at `email`, given its current one: the
 * change-password form of the sign-in page, where no one is signed in and the current
 * password proves who asks. A wrong current password (or an unknown address, checked against
 * a decoy so it takes as long) counts towards the address's lockout like a wrong one on the
 * sign-in page; a locked address is refused before anything is checked.
 */
export async function replacePassword(
  ctx: PublicContext,
  input: { email: string; currentPassword: string; newPassword: string },
): Promise<PasswordChange> {
  const { db, config } = ctx.deps;
  const { email, currentPassword: current, newPassword: next } = input;
  const cost = config.passwordCost;
  const locked = await passwordLockedUntil(db, email);
  if (locked) return { kind: 'locked', until: locked };
  const user = await getUserByEmail(db, email);
  const ok = await verifyPassword(current, user ? await store.passwordHash(db, user.id) : undefined, cost);
  if (!user || !ok) {
    const lockedNow = await countWrongPassword(db, email);
    return lockedNow ? { kind: 'locked', until: lockedNow } : { kind: 'mismatch' };
  }
  const reason = weakness(next, current, user.email);
  if (reason) return { kind: 'weak', reason };
  await store.setPasswordHash(db, user.id, await hashPassword(next, cost));
  await forgetWrongPasswords(db, email);
  return { kind: 'done' };
}

/**
 * `PUT /v1/user/password`: the caller changes the password they sign in with, proving the
 * current one (a token alone must not be a way to guess it: wrong ones count towards the lockout).
 */
export async function changePassword(ctx: CommandContext, input: ChangePasswordBody): Promise<void> {
  const result = await replacePassword(ctx, { ...input, email: ctx.caller.user.email });
  if (result.kind === 'locked') throw lockedError(result.until);
  if (result.kind === 'mismatch') throw forbidden('Invalid body field "currentPassword": it is not the password you sign in with.');
  if (result.kind === 'weak') throw badRequest(`Invalid body field "newPassword": ${result.reason}.`);
}
