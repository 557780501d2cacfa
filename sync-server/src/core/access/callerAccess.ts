import type { Db, Queryable } from '../../store/db';
import { grantsForUser } from '../../store/grants';
import { getMembership } from '../../store/members';
import { OrgAccess, type Placed } from './orgAccess';
import { readModelOf, tags } from '../readModel/readModel';
import { applySsoEnforcement } from '../sso/enforcement';

// The standing itself lives in orgAccess.ts, which SSO enforcement builds on without this loader.
export { OrgAccess, type Placed };

export async function loadOrgAccess(db: Queryable, orgId: string, userId: string): Promise<OrgAccess> {
  const [member, grants, collections] = await Promise.all([
    getMembership(db, orgId, userId),
    grantsForUser(db, orgId, userId),
    db.query<Placed>('SELECT id, parent_id, default_level FROM collections WHERE org_id = $1', [orgId]),
  ]);
  return new OrgAccess(orgId, userId, member, grants, new Map(collections.map((c) => [c.id, c])));
}

/**
 * The caller's standing in an organization as every check needs it (SSO enforcement
 * included), from the read model when it is there. Kept per token: enforcement depends on
 * how the token was issued. Shared between requests, so never changed once built.
 */
export async function orgAccessOf(db: Db, orgId: string, userId: string, tokenId: string | undefined): Promise<OrgAccess> {
  const load = async () => applySsoEnforcement(db, await loadOrgAccess(db, orgId, userId), tokenId);
  const kept = await readModelOf(db).through(`access:${orgId}:${userId}:${tokenId ?? ''}`, async () => ({
    value: await load(),
    tags: [tags.access(orgId)],
  }));
  return kept ?? load();
}

/** Memoizes organization access for the length of one request. */
export class Access {
  private byOrg = new Map<string, Promise<OrgAccess>>();
  constructor(
    /** A whole database reads through the read model; a transaction reads what it sees. */
    private db: Db | Queryable,
    readonly userId: string,
    /** The API token of the request: SSO enforcement depends on how it was issued. */
    readonly tokenId?: string,
  ) {}

  org(orgId: string): Promise<OrgAccess> {
    let p = this.byOrg.get(orgId);
    if (!p) {
      const db = this.db;
      p =
        'listen' in db
          ? orgAccessOf(db, orgId, this.userId, this.tokenId)
          : loadOrgAccess(db, orgId, this.userId).then((a) => applySsoEnforcement(db, a, this.tokenId));
      this.byOrg.set(orgId, p);
    }
    return p;
  }

  /** Forget what was loaded (after a write that changes roles or grants). */
  reset(orgId?: string) {
    if (orgId) this.byOrg.delete(orgId);
    else this.byOrg.clear();
  }
}
