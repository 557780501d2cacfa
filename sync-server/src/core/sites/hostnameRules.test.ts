import { createSocket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestDnsServer } from '../../testing/dnsServer';
import { hostnameProven, isReservedHostname, isServerPath, verificationRecordName, verificationRecordValue } from './hostnameOwnership';

/**
 * The rules behind custom hostnames: the server's own names and paths are never a site's,
 * and a name is a site's only when its `_quire.<hostname>` TXT record names exactly that
 * site. The API and Host routing around them are in `hostnameOwnership.test.ts`.
 */
let dns: TestDnsServer;
beforeAll(async () => {
  dns = await TestDnsServer.start();
});
afterAll(() => dns?.close());

const SITE = 'SiteAAAAAAAAAAAAAAAAAA';

describe('paths of the server itself', () => {
  it.each(['/v1', '/v1/', '/v1/orgs', '/sso/saml', '/files/x', '/exports/y', '/healthz', '/V1/orgs', '/SSO', '/HEALTHZ'])(
    '%s is the server’s, whatever the Host',
    (path) => expect(isServerPath(path)).toBe(true),
  );
  it.each([
    '/',
    '/v1x',
    '/v2/orgs',
    '/docs/v1',
    '/healthz/x',
    '/healthzz',
    '/filesystem',
    '/a/sso',
    '/exportsx',
    '/ssox/y',
    '/docs/healthz',
  ])('%s may be a site’s', (path) => expect(isServerPath(path)).toBe(false));
});

describe('hostnames of the server itself', () => {
  it('are reserved in any case, and no other name is', () => {
    const config = { reservedHostnames: ['quire.example.com', 'localhost'] };
    expect(isReservedHostname(config, 'quire.example.com')).toBe(true);
    expect(isReservedHostname(config, 'Quire.Example.COM')).toBe(true);
    expect(isReservedHostname(config, 'LOCALHOST')).toBe(true);
    expect(isReservedHostname(config, 'docs.quire.example.com')).toBe(false);
    expect(isReservedHostname(config, 'quire.example.co')).toBe(false);
    expect(isReservedHostname({ reservedHostnames: [] }, 'quire.example.com')).toBe(false);
  });
});

describe('proving a hostname', () => {
  const config = () => ({ hostnameDnsServers: [dns.address] });

  it('asks for the TXT record quire-site=<siteId> on _quire.<hostname>', () => {
    expect(verificationRecordName('docs.example.com')).toBe('_quire.docs.example.com');
    expect(verificationRecordValue(SITE)).toBe(`quire-site=${SITE}`);
  });

  it('takes a record naming exactly this site, also split in chunks or padded', async () => {
    dns.prove('proven.example.com', SITE);
    expect(await hostnameProven(config(), 'proven.example.com', SITE)).toBe(true);
    dns.txt.set('_quire.padded.example.com', [` quire-site=${SITE} `]);
    expect(await hostnameProven(config(), 'padded.example.com', SITE)).toBe(true);
    // One record in several character-strings, as long values are published.
    dns.txt.set('_quire.chunked.example.com', [['quire-site=', SITE.slice(0, 10), SITE.slice(10)] as unknown as string]);
    expect(await hostnameProven(config(), 'chunked.example.com', SITE)).toBe(true);
    dns.txt.set('_quire.several.example.com', ['v=spf1 -all', `quire-site=${SITE}`]);
    expect(await hostnameProven(config(), 'several.example.com', SITE)).toBe(true);
  });

  it('refuses a record for another site, a longer or shorter one, none, and the record on the name itself', async () => {
    dns.prove('other.example.com', 'SiteBBBBBBBBBBBBBBBBBB');
    expect(await hostnameProven(config(), 'other.example.com', SITE)).toBe(false);
    dns.txt.set('_quire.longer.example.com', [`quire-site=${SITE}x`]);
    expect(await hostnameProven(config(), 'longer.example.com', SITE)).toBe(false);
    dns.txt.set('_quire.shorter.example.com', [`quire-site=${SITE.slice(0, -1)}`]);
    expect(await hostnameProven(config(), 'shorter.example.com', SITE)).toBe(false);
    dns.txt.set('_quire.bare.example.com', [SITE]);
    expect(await hostnameProven(config(), 'bare.example.com', SITE)).toBe(false);
    expect(await hostnameProven(config(), 'nothing.example.com', SITE)).toBe(false);
    dns.txt.set('itself.example.com', [`quire-site=${SITE}`]);
    expect(await hostnameProven(config(), 'itself.example.com', SITE)).toBe(false);
  });
});

describe('a DNS server that does not answer', () => {
  it('is given up on within seconds, the hostname not proven', async () => {
    const silent = createSocket('udp4');
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
    try {
      const started = Date.now();
      expect(await hostnameProven({ hostnameDnsServers: [`127.0.0.1:${silent.address().port}`] }, 'slow.example.com', SITE)).toBe(false);
      expect(Date.now() - started).toBeLessThan(9000);
    } finally {
      silent.close();
    }
  }, 20_000);
});
