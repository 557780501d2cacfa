import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestDnsServer } from '../../testing/dnsServer';
import { TestServer, type TestUser } from '../../testing/harness';
import { writePages } from '../../testing/testContent';

/**
 * Custom hostnames through the API and the Host header: which site a name reaches is
 * decided by the `_quire.<hostname>` TXT record, and by nothing a user of another site sends.
 */

let t: TestServer;
let dns: TestDnsServer;

beforeAll(async () => {
  dns = await TestDnsServer.start();
  t = await TestServer.start({ hostnameDnsServers: [dns.address] });
});
afterAll(async () => {
  dns?.close();
  await t?.close();
});

/** A published site of one page whose text is `words`. */
async function publishedSite(org: { orgId: string; admin: TestUser }, words: string) {
  const spaceId = (await t.post(`/v1/orgs/${org.orgId}/spaces`, org.admin.token, { title: words })).body.id as string;
  await writePages(t.db, spaceId, [{ title: 'Home', markdown: `${words}\n` }]);
  const created = await t.post(`/v1/orgs/${org.orgId}/sites`, org.admin.token, { title: words, spaces: [spaceId] });
  expect(created.status).toBe(200);
  expect((await t.post(`/v1/orgs/${org.orgId}/sites/${created.body.id}/publish`, org.admin.token)).status).toBe(200);
  const path = `/v1/orgs/${org.orgId}/sites/${created.body.id}`;
  return {
    id: created.body.id as string,
    claim: (hostname: string) => t.patch(path, org.admin.token, { hostname }),
    hostname: async () => (await t.get(path, org.admin.token)).body.hostname as string | undefined,
  };
}

const atHost = (host: string) => t.request('GET', '/', { headers: { host } });

describe('custom hostnames', () => {
  it('leaves a proven hostname with its site: no other site takes it without a proof of its own', async () => {
    const a = await t.org();
    const b = await t.org();
    const owner = await publishedSite(a, 'Owner zeppelin text');
    const sibling = await publishedSite(a, 'Sibling text');
    const squatter = await publishedSite(b, 'Squatter text');
    const host = 'docs.owner-example.test';
    dns.prove(host, owner.id);
    expect((await owner.claim(host)).status).toBe(200);
    expect((await atHost(host)).body).toContain('Owner zeppelin text');

    const tryToTake = async () => {
      for (const other of [squatter, sibling]) {
        const taken = await other.claim(host);
        expect(taken.status).toBe(400);
        expect(taken.body.error.message).toBe('Invalid body field "hostname": already used by another site.');
        expect(await other.hostname()).toBeUndefined();
      }
      expect(await owner.hostname()).toBe(host);
      const served = await atHost(host);
      expect(served.status).toBe(200);
      expect(served.body).toContain('Owner zeppelin text');
    };
    // With the owner's record still in place, and once it is gone: the name was proven once.
    await tryToTake();
    dns.txt.delete(`_quire.${host}`);
    await tryToTake();

    // Whoever controls the name's DNS decides: a record naming the other site hands it over.
    dns.prove(host, squatter.id);
    expect((await squatter.claim(host)).status).toBe(200);
    expect((await atHost(host)).body).toContain('Squatter text');
    expect(await owner.hostname()).toBeUndefined();
  });

  it('takes as proof only a record naming exactly this site', async () => {
    const org = await t.org();
    const site = await publishedSite(org, 'Exact proof text');
    const other = await publishedSite(org, 'Other site text');
    const host = 'docs.exact-example.test';
    const wrong = [
      `quire-site=${other.id}`,
      `quire-site=${site.id.slice(0, -1)}`,
      `quire-site=${site.id.slice(1)}`,
      `quire-site=${site.id}x`,
      `quire-site=x${site.id}`,
      `quire-site=${site.id},${other.id}`,
      `xquire-site=${site.id}`,
      `site=${site.id}`,
      site.id,
    ];
    for (const record of wrong) {
      dns.txt.set(`_quire.${host}`, [record]);
      expect((await site.claim(host)).status, record).toBe(200);
      const res = await atHost(host);
      expect(res.status, record).toBe(404);
      expect(res.body, record).not.toContain('Exact proof text');
    }
    // A record on the name itself, not on `_quire.<name>`, proves nothing either.
    dns.txt.delete(`_quire.${host}`);
    dns.txt.set(host, [`quire-site=${site.id}`]);
    expect((await site.claim(host)).status).toBe(200);
    expect((await atHost(host)).status).toBe(404);

    dns.prove(host, site.id);
    expect((await site.claim(host)).status).toBe(200);
    expect((await atHost(host)).body).toContain('Exact proof text');
  });
});
