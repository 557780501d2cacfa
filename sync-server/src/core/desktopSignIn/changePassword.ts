import { badRequest, forbidden } from '@quire/shared/domainErrors';
import type { ChangePasswordBody } from '@quire/shared/schemas/user';
import * as store from '../../store/desktopSignIns';
import type { CommandContext } from '../platform/deps';
import { countWrongPassword, forgetWrongPasswords, lockedError, passwordLockedUntil } from './lockout';
import { hashPassword, verifyPassword } from './passwords';

/**
 * The caller changes the password they sign in with, proving the current one. A wrong
 * current password counts towards the address's lockout like a wrong one on the sign-in
 * page (a token alone must not be a way to guess the password); a locked address is refused
 * until the lock ends.
 */
export async function changePassword(ctx: CommandContext, input: ChangePasswordBody): Promise<void> {
  const { db } = ctx.deps;
  const { user } = ctx.caller;
  const locked = await passwordLockedUntil(db, user.email);
  if (locked) throw lockedError(locked);
  // A caller who has no password yet is checked against a decoy, and refused.
  const ok = await verifyPassword(input.currentPassword, await store.passwordHash(db, user.id));
  if (!ok) {
    const lockedNow = await countWrongPassword(db, user.email);
    if (lockedNow) throw lockedError(lockedNow);
    throw forbidden('Invalid body field "currentPassword": it is not the password you sign in with.');
  }
  if (input.newPassword.normalize('NFC') === input.currentPassword.normalize('NFC')) {
    throw badRequest('Invalid body field "newPassword": it is your current password; choose a new one.');
  }
  const name = user.email.split('@')[0]!.toLowerCase();
  if (name.length >= 4 && input.newPassword.toLowerCase().includes(name)) {
    throw badRequest('Invalid body field "newPassword": it contains your email address; choose one harder to guess.');
  }
  await store.setPasswordHash(db, user.id, await hashPassword(input.newPassword));
  await forgetWrongPasswords(db, user.email);
}
