/**
 * A LocalNode in its own process, driven by JSON lines on stdin and answering on stdout,
 * so tests can SIGKILL it at a chosen moment and reopen its data directory afterwards.
 *
 * Usage: tsx nodeProcess.ts <dataDir>; each command `{"id":1,"cmd":"…",…}` is answered by
 * `{"id":1,"ok":true,…}`; progress lines (`{"event":"saved","n":3}`) come in between.
 */
import { createInterface } from 'node:readline';
import { createPage } from '@quire/shared/content/pages';
import { LocalNode } from '../../../desktop/src/local/LocalNode';
import { FileCredentialStore } from '../../../desktop/src/local/credentials';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: nodeProcess.ts <dataDir>');

const out = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);
const node = await LocalNode.open({ dataDir, credentials: new FileCredentialStore(`${dataDir}/credentials.json`), probeIntervalMs: 200 });
out({ event: 'ready' });

type Command = { id: number; cmd: string; [key: string]: unknown };

const handlers: Record<string, (c: Command) => Promise<unknown>> = {
  connect: async (c) => node.session.connect(c.url as string, c.token as string),
  useLocal: async () => node.session.useLocal(),
  workOffline: async (c) => node.session.setWorkOffline(c.offline as boolean),
  createSpace: async (c) => node.catalog.createSpace({ title: c.title as string, organizationId: c.organizationId as string | undefined }),
  refreshCatalog: async () => node.catalog.refresh(),
  status: async () => node.session.status(),
  /** Adds pages one by one; reports each once it is saved, then keeps going until killed or done. */
  addPages: async (c) => {
    const branch = await node.branches.acquire({ spaceId: c.spaceId as string });
    for (let i = 0; i < (c.count as number); i++) {
      createPage(branch.doc, { title: `${c.prefix}-${i}` });
      await branch.saved();
      out({ event: 'saved', n: i });
    }
    return { added: c.count };
  },
  createChangeRequests: async (c) => {
    const ids: string[] = [];
    for (const subject of c.subjects as string[]) ids.push((await node.changeRequests.create(c.spaceId as string, subject)).id);
    return { ids };
  },
  refreshChangeRequests: async (c) => node.changeRequests.refresh(c.spaceId as string),
  listChangeRequests: async (c) => node.changeRequests.list(c.spaceId as string),
  postComments: async (c) => {
    const ids: string[] = [];
    for (const body of c.bodies as string[])
      ids.push((await node.comments.post({ spaceId: c.spaceId as string }, c.pageId as string, body)).id);
    return { ids };
  },
  /** Resolves once nothing waits in the outbox (refused entries aside). */
  drain: async () => {
    for (;;) {
      const status = await node.session.status();
      if (status.pendingMutations === 0) return status;
      await new Promise((r) => setTimeout(r, 50));
    }
  },
  outbox: async () => node.queue.entries(),
  close: async () => {
    await node.close();
    setTimeout(() => process.exit(0), 10);
    return {};
  },
};

for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const command = JSON.parse(line) as Command;
  const handler = handlers[command.cmd];
  void (async () => {
    try {
      if (!handler) throw new Error(`unknown command ${command.cmd}`);
      out({ id: command.id, ok: true, result: await handler(command) });
    } catch (err) {
      out({ id: command.id, ok: false, error: (err as Error).message });
    }
  })();
}
