import { createHash, randomBytes } from 'node:crypto';
import type { Db, Queryable } from '../../store/db';
import { forgetSaltsBefore, latestSessions, saltOfDay } from '../../store/insights';

/**
 * Visitors without tracking them: a visitor is a hash of the site, the address, the user
 * agent and a salt that changes every day (UTC) and is deleted once the day is over, so a
 * hash can neither be traced back to an address nor joined with another day's. Sessions
 * are the events of one visitor with less than 30 minutes between them.
 */

export const SESSION_GAP_MS = 30 * 60 * 1000;

const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/** The salts this process holds, by database: today's only. */
const salts = new WeakMap<Queryable, { day: string; salt: Promise<Uint8Array> }>();

/** Today's salt; the first ask of a new day also forgets the days before it. */
export function todaysSalt(db: Db | Queryable, now = new Date()): Promise<Uint8Array> {
  const day = dayOf(now);
  const held = salts.get(db);
  if (held?.day === day) return held.salt;
  const salt = (async () => {
    const s = await saltOfDay(db, day, randomBytes(32));
    await forgetSaltsBefore(db, day);
    return s;
  })();
  salts.set(db, { day, salt });
  salt.catch(() => salts.delete(db));
  return salt;
}

/** The visitor of a site for an address and a user agent, today. */
export function visitorHash(salt: Uint8Array, siteId: string, address: string, userAgent: string): string {
  return createHash('sha256').update(salt).update(`\0${siteId}\0${address}\0${userAgent}`).digest('base64url').slice(0, 22);
}

const newSession = () => randomBytes(12).toString('base64url');

/**
 * Gives each event its session: the visitor's latest one when it was seen less than 30
 * minutes before (in this batch or stored), else a new one. Events are taken in time order.
 */
export async function assignSessions<T extends { site_id: string; visitor: string; at: string; session: string }>(
  db: Queryable,
  rows: T[],
): Promise<void> {
  const bySite = new Map<string, T[]>();
  for (const r of rows) {
    const list = bySite.get(r.site_id);
    if (list) list.push(r);
    else bySite.set(r.site_id, [r]);
  }
  for (const [siteId, list] of bySite) {
    list.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
    const earliest = new Date(new Date(list[0]?.at ?? Date.now()).getTime() - SESSION_GAP_MS);
    const last = new Map<string, { session: string; at: number }>();
    for (const s of await latestSessions(db, siteId, [...new Set(list.map((r) => r.visitor))], earliest)) {
      last.set(s.visitor, { session: s.session, at: new Date(s.at).getTime() });
    }
    for (const r of list) {
      const at = new Date(r.at).getTime();
      const prev = last.get(r.visitor);
      const session = prev && Math.abs(at - prev.at) < SESSION_GAP_MS ? prev.session : newSession();
      r.session = session;
      last.set(r.visitor, { session, at: Math.max(at, prev?.at ?? at) });
    }
  }
}
