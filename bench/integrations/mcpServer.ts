/**
 * The server the integrations benchmark loads, in a process of its own (as in production),
 * so the load generator's work is not counted against it: a fresh embedded database, a
 * space of 40 pages published as a site, and an API token. It tells its parent where
 * everything is, then answers each `cpu` message with the CPU time it has used.
 */
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../sync-server/src/config';
import type { Deps } from '../../sync-server/src/http/env';
import { createLogger } from '../../sync-server/src/logger';
import { listenHttp } from '../../sync-server/src/server';
import { migrate } from '../../sync-server/src/store/migrate';
import { createOrg } from '../../sync-server/src/store/organizations';
import { openPglite } from '../../sync-server/src/store/pglite';
import { createToken } from '../../sync-server/src/store/tokens';
import { ensureUser } from '../../sync-server/src/store/users';
import { writePages } from '../../sync-server/src/testing/testContent';

export interface BenchTarget {
  origin: string;
  token: string;
  spaceId: string;
  pageId: string;
  siteRoot: string;
}

const PAGE_MARKDOWN = `Quire keeps documentation next to the people who write it.

## Install

\`\`\`bash
npm install -g @acme/cli
\`\`\`

{% hint style="info" %}
You need Node.js 20 or later.
{% endhint %}

## Configure

| Option | Default | Meaning |
| --- | --- | --- |
| region | eu | Where your data lives |
| retries | 3 | How often a request is retried |

- Create a project
- Invite your team
- Publish your first page
`;

const db = await openPglite(undefined);
await migrate(db);
const config = { ...loadConfig({}), rateLimitPerAddress: 0, rateLimitPerToken: 0, rateLimitSitesPerAddress: 0 };
const deps: Deps = { db, config, log: createLogger('silent') };
const server = await listenHttp(deps, 0, '127.0.0.1');
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const user = await ensureUser(db, 'bench@example.com', 'Bench');
const token = await createToken(db, user.id);
const org = await createOrg(db, 'Bench', user.id);
const api = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${origin}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  return res.json() as Promise<{ id: string; basename: string }>;
};
const space = await api('POST', `/v1/orgs/${org.id}/spaces`, { title: 'Guides' });
const pageIds = await writePages(
  db,
  space.id,
  Array.from({ length: 40 }, (_, i) => ({ title: `Page ${i + 1}`, markdown: PAGE_MARKDOWN })),
);
const site = await api('POST', `/v1/orgs/${org.id}/sites`, { title: 'Bench Docs', spaces: [space.id] });
await api('POST', `/v1/orgs/${org.id}/sites/${site.id}/publish`);

const target: BenchTarget = {
  origin,
  token,
  spaceId: space.id,
  pageId: pageIds[19] as string,
  siteRoot: `${origin}/s/${org.id}/${site.basename}`,
};
process.on('message', (msg) => {
  if (msg === 'cpu') process.send?.({ cpu: process.cpuUsage() });
  if (msg === 'stop') server.close(() => void db.close().then(() => process.exit(0)));
});
process.send?.({ target });
