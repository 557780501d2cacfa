import type { Role } from '@quire/shared';
import { findChangeRequest } from '../../store/changeRequests';
import type { Db } from '../../store/db';
import { DataDirInUseError } from '../../store/lock';
import { addMember, getMembership, setMemberRole } from '../../store/members';
import { type StoreSettings, openStore } from '../../store/open';
import { setPasswordHash } from '../../store/desktopSignIns';
import { forgetWrongPasswords } from '../desktopSignIn/lockout';
import { createOrg, getOrg } from '../../store/organizations';
import { getSpace } from '../../store/spaces';
import { createToken, revokeToken } from '../../store/tokens';
import { ensureUser, getUserByEmail } from '../../store/users';
import { type ArchiveFormat, exportRevisionArchive } from '../content/export';
import { type ScryptCost, hashPassword } from '../desktopSignIn/passwords';
import { initSpaceContent } from '../content/revisions';

/*
 * What `npm run admin` does to the server's database, for an operator at the machine: no
 * caller and no access checks, which the command line does not have.
 */

export interface AdminStore {
  db: Db;
  close(): Promise<void>;
}

/**
 * Opens the server's database for one command; `inUse` says why not when a running server holds it.
 * On the command's own thread: the database thread keeps a server's event loop free for its
 * sockets, which a command has none of, and starting it took most of a command's CPU (a second).
 */
export async function openAdminStore(settings: StoreSettings): Promise<AdminStore | { inUse: string }> {
  let store: Awaited<ReturnType<typeof openStore>>;
  try {
    store = await openStore({ ...settings, pgliteThread: false });
  } catch (err) {
    if (err instanceof DataDirInUseError) return { inUse: err.message };
    throw err;
  }
  return {
    db: store.db,
    close: async () => {
      await store.db.close();
      store.unlock();
    },
  };
}

/** A new organization owned by `ownerEmail` (a user made for it when there is none). */
export function createOrganization(db: Db, title: string, ownerEmail: string) {
  return db.transaction(async (tx) => createOrg(tx, title, (await ensureUser(tx, ownerEmail)).id));
}

/**
 * Makes `email` a member of the organization with `role` (null: a guest), creating the user
 * and changing the role of one already there; undefined when there is no such organization.
 */
export async function setMember(db: Db, orgId: string, email: string, role: Role | null, name?: string) {
  if (!(await getOrg(db, orgId))) return undefined;
  return db.transaction(async (tx) => {
    const u = await ensureUser(tx, email.toLowerCase(), name);
    if (await getMembership(tx, orgId, u.id)) {
      await setMemberRole(tx, orgId, u.id, role);
    } else {
      await addMember(tx, orgId, u.id, role);
    }
    return u;
  });
}

/** A new API token for the user with `email`; undefined when there is none. */
export async function issueToken(db: Db, email: string) {
  const user = await getUserByEmail(db, email);
  if (!user) return undefined;
  const token = await createToken(db, user.id, undefined, 'admin command');
  return { user, token };
}

/**
 * Sets the password the user signs in with on the desktop sign-in page (where no
 * organization of theirs requires single sign-on); undefined when there is no such user.
 */
export async function setPassword(db: Db, email: string, password: string, cost: ScryptCost) {
  const user = await getUserByEmail(db, email);
  if (!user) return undefined;
  await setPasswordHash(db, user.id, await hashPassword(password, cost));
  // A new password ends a lockout: the operator knows who asked.
  await forgetWrongPasswords(db, user.email);
  return user;
}

/** Whether there was such a token to revoke. */
export function revokeTokenValue(db: Db, token: string): Promise<boolean> {
  return revokeToken(db, token);
}

/**
 * A space's content (or a change request's, by id or number) as an archive, the same as
 * `GET …/content/export?format=markdown`; `missing` names what was not found.
 */
export async function spaceArchive(
  db: Db,
  spaceId: string,
  changeRequestRef: string | undefined,
  format: ArchiveFormat,
): Promise<{ bytes: Uint8Array } | { missing: 'space' | 'changeRequest' }> {
  const space = await getSpace(db, spaceId);
  if (!space) return { missing: 'space' };
  let revisionId = space.revision_id;
  if (changeRequestRef) {
    const cr = await findChangeRequest(db, spaceId, changeRequestRef);
    if (!cr) return { missing: 'changeRequest' };
    revisionId = cr.revision_id;
  }
  if (!revisionId) revisionId = (await db.transaction((tx) => initSpaceContent(tx, spaceId))).id;
  return { bytes: await exportRevisionArchive(db, spaceId, revisionId, format) };
}
