import { getPageMarkdown, setPageMarkdown } from '@quire/shared/content/body';
import { getFile } from '@quire/shared/content/files';
import { createPage, getPage, listPages } from '@quire/shared/content/pages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalNode } from '../../desktop/src/local/LocalNode';
import { MemoryCredentialStore } from '../../desktop/src/local/credentials';
import { KillingProxy } from './helpers/killingProxy';
import { type QuireTestServer, eventually, startQuireServer } from './helpers/server';

let s: QuireTestServer;
beforeAll(async () => {
  s = await startQuireServer();
});
afterAll(async () => s?.close());

/** A 1×1 PNG. */
const PNG = new Uint8Array(
  Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64'),
);

async function serverSpace(title: string): Promise<string> {
  const created = await s.live.t.post(`/v1/orgs/${s.orgId}/spaces`, s.token, { title });
  expect(created.status).toBe(201);
  return created.body.id as string;
}

/** The bytes the server serves for a file of a space, once its content lists the file. */
async function serverBytes(spaceId: string, fileId: string): Promise<Buffer> {
  let url = '';
  await eventually(
    async () => {
      const file = await s.live.t.get(`/v1/spaces/${spaceId}/content/files/${fileId}`, s.token);
      url = file.status === 200 ? (file.body.downloadURL as string) : '';
      return url !== '';
    },
    'the server to list the file with its bytes',
    20_000,
  );
  const link = new URL(url);
  const res = await fetch(`${s.url}${link.pathname}${link.search}`);
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

describe('files', () => {
  it('keeps an image inserted offline here at once, uploads it once when back online, under the same id on the server', async () => {
    const spaceId = await serverSpace('Pictures');
    const proxy = await KillingProxy.start(s.url);
    const n = await LocalNode.open({ credentials: new MemoryCredentialStore(), probeIntervalMs: 100 });
    try {
      await n.session.connect(proxy.url, s.token);
      await n.catalog.refresh();
      await n.session.setWorkOffline(true);
      const pageId = await n.branches.with({ spaceId }, (branch) => createPage(branch.doc, { title: 'Diagram' }));
      const file = await n.files.put({ spaceId }, { name: 'diagram.png', contentType: 'image/png', bytes: PNG });
      expect(file.src).toBe(`upload:${file.id}`);
      await n.branches.with({ spaceId }, (branch) => {
        setPageMarkdown(branch.doc, pageId, `![Diagram](${file.src})\n`);
        // The page refers to the file, not to its bytes; the branch records it once the server has them.
        expect(getFile(branch.doc, file.id)).toBeNull();
        expect(getPageMarkdown(branch.doc, pageId)).not.toMatch(/base64/);
      });

      // Offline: shown from this machine, waiting in the outbox, counted as a page and a file.
      const local = await n.files.read({ spaceId }, file.id);
      expect(Buffer.from(local?.bytes ?? []).equals(Buffer.from(PNG))).toBe(true);
      expect((await n.queue.entries()).map((e) => [e.kind, e.label])).toEqual([['file.upload', 'Upload “diagram.png”']]);
      await eventually(async () => {
        const st = await n.session.status();
        return st.pendingFiles === 1 && st.pendingPages === 1;
      }, 'the status to count one page and one file');

      // Back online; the first upload's answer is lost on the way: it is sent again, and stored once.
      let dropped = false;
      proxy.onAnswered = (req) => {
        if (dropped || req.method !== 'PUT') return false;
        dropped = true;
        return true;
      };
      await n.session.setWorkOffline(false);
      await eventually(async () => (await n.session.status()).pendingMutations === 0, 'the upload', 30_000);
      expect((await n.session.status()).failed).toBe(0);
      const puts = proxy.seen.filter((r) => r.method === 'PUT');
      expect(puts.map((r) => [r.path.split('?')[0], r.status])).toEqual([
        [`/v1/spaces/${spaceId}/content/files/${file.id}`, 201],
        [`/v1/spaces/${spaceId}/content/files/${file.id}`, 200],
      ]);
      expect((await serverBytes(spaceId, file.id)).equals(Buffer.from(PNG))).toBe(true);
      await eventually(async () => (await n.session.status()).pending === 0, 'the page to be sent', 20_000);
      expect(await n.session.status()).toMatchObject({ pendingPages: 0, pendingFiles: 0 });
      await n.branches.with({ spaceId }, (branch) => {
        expect(getPageMarkdown(branch.doc, pageId)).toContain(`file:${file.id}`);
        expect(getFile(branch.doc, file.id)).toMatchObject({ name: 'diagram.png', contentType: 'image/png', size: PNG.byteLength });
      });
    } finally {
      await n.close();
      await proxy.close();
    }
  });

  it(
    'while online, the server holds the bytes before the page that shows them, and another machine shows them',
    { timeout: 60_000 },
    async () => {
      const spaceId = await serverSpace('Online');
      const a = await LocalNode.open({ credentials: new MemoryCredentialStore(), probeIntervalMs: 100 });
      const b = await LocalNode.open({ credentials: new MemoryCredentialStore(), probeIntervalMs: 100 });
      try {
        await a.session.connect(s.url, s.token);
        await a.catalog.refresh();
        // A window has the space open: its edits go to the server live.
        await a.branches.acquire({ spaceId });
        const file = await a.files.put({ spaceId }, { name: 'shot.png', contentType: 'image/png', bytes: PNG });
        await a.branches.with({ spaceId }, (branch) => createPage(branch.doc, { title: 'Shot', markdown: `![Shot](${file.src})\n` }));
        await eventually(async () => (await a.queue.entries()).length === 0, 'the upload', 30_000);
        const raw = await fetch(`${s.url}/v1/spaces/${spaceId}/content/files/${file.id}?name=x.png`, {
          method: 'PUT',
          headers: { authorization: `Bearer ${s.token}`, 'content-type': 'image/png' },
          body: PNG,
        });
        expect(raw.status).toBe(200);

        await b.session.connect(s.url, s.otherToken);
        await b.catalog.refresh();
        let shown: { bytes: Uint8Array } | null = null;
        await eventually(
          async () => {
            shown = await b.files.read({ spaceId }, file.id);
            return !!shown;
          },
          'the other machine to fetch the file',
          20_000,
        );
        expect(Buffer.from((shown as unknown as { bytes: Uint8Array }).bytes).equals(Buffer.from(PNG))).toBe(true);
      } finally {
        await a.close();
        await b.close();
      }
    },
  );

  it(
    'a page showing a file whose upload outlasts ten seconds never reaches the server pointing at it first, and other pages go on',
    { timeout: 90_000 },
    async () => {
      const spaceId = await serverSpace('Slow upload');
      const proxy = await KillingProxy.start(s.url);
      const writer = await LocalNode.open({ credentials: new MemoryCredentialStore(), probeIntervalMs: 100 });
      const reader = await LocalNode.open({ credentials: new MemoryCredentialStore(), probeIntervalMs: 100 });
      let release = () => {};
      try {
        await writer.session.connect(proxy.url, s.token);
        await writer.catalog.refresh();
        const branch = await writer.branches.acquire({ spaceId });
        await eventually(() => branch.connection === 'online', 'the branch online');
        // Another machine, straight to the server: it sees what the server's room holds.
        await reader.session.connect(s.url, s.otherToken);
        await reader.catalog.refresh();
        const seen = await reader.branches.acquire({ spaceId });
        await eventually(() => seen.connection === 'online', 'the reader online');

        // The upload's bytes are held back on the way until we let them go.
        const held = new Promise<void>((resolve) => {
          release = resolve;
        });
        let uploading = false;
        proxy.beforeForward = async (req) => {
          if (req.method !== 'PUT') return;
          uploading = true;
          await held;
        };
        const file = await writer.files.put({ spaceId }, { name: 'late.png', contentType: 'image/png', bytes: PNG });
        const shows = createPage(branch.doc, { title: 'Shows a late file', markdown: `Intro.\n\n![Late](${file.src})\n` });
        createPage(branch.doc, { title: 'Text only', markdown: 'Nothing to wait for.\n' });
        await branch.saved();
        await eventually(() => uploading, 'the upload to start', 20_000);

        // Longer than the ten seconds an insert used to wait: the text goes on, the file reference does not.
        await new Promise((r) => setTimeout(r, 11_000));
        await eventually(() => listPages(seen.doc).some((p) => p.title === 'Text only'), 'the other page to reach the server', 20_000);
        await eventually(() => getPage(seen.doc, shows) !== null, 'the page that shows the file to reach the server', 20_000);
        expect(getPageMarkdown(seen.doc, shows)).toContain('Intro.');
        expect(getPageMarkdown(seen.doc, shows)).not.toContain(`file:${file.id}`);
        expect(getFile(seen.doc, file.id)).toBeNull();
        expect((await writer.session.status()).pendingFiles).toBe(1);

        release();
        await eventually(
          () => getPageMarkdown(seen.doc, shows).includes(`file:${file.id}`),
          'the page to point at the uploaded file',
          30_000,
        );
        expect(getFile(seen.doc, file.id)).toMatchObject({ name: 'late.png', size: PNG.byteLength });
        expect((await serverBytes(spaceId, file.id)).equals(Buffer.from(PNG))).toBe(true);
      } finally {
        release();
        await writer.close();
        await reader.close();
        await proxy.close();
      }
    },
  );

  it(
    'coming back online, a branch sends its pages at once, and points them at a file once its upload is acknowledged',
    { timeout: 60_000 },
    async () => {
      const spaceId = await serverSpace('Ordered');
      const proxy = await KillingProxy.start(s.url);
      const n = await LocalNode.open({ credentials: new MemoryCredentialStore(), probeIntervalMs: 100 });
      let release = () => {};
      try {
        await n.session.connect(proxy.url, s.token);
        await n.catalog.refresh();
        const branch = await n.branches.acquire({ spaceId });
        await eventually(() => branch.connection === 'online', 'the branch online');
        await n.session.setWorkOffline(true);
        const file = await n.files.put({ spaceId }, { name: 'late.png', contentType: 'image/png', bytes: PNG });
        const pageId = createPage(branch.doc, { title: 'Shows a file', markdown: `![Late](${file.src})\n` });
        await branch.saved();

        // The upload is slow: its answer is held back until we let it go.
        const held = new Promise<void>((resolve) => {
          release = resolve;
        });
        let uploading = false;
        proxy.onAnswered = async (req) => {
          if (req.method !== 'PUT') return false;
          uploading = true;
          await held;
          return false;
        };
        await n.session.setWorkOffline(false);
        await eventually(() => uploading, 'the upload to start', 20_000);
        await eventually(() => branch.connection === 'online', 'the branch to sync without waiting for the upload', 20_000);
        expect(getPageMarkdown(branch.doc, pageId)).toContain(`upload:${file.id}`);
        release();
        await eventually(() => getPageMarkdown(branch.doc, pageId).includes(`file:${file.id}`), 'the page to point at the file', 20_000);
        expect((await serverBytes(spaceId, file.id)).equals(Buffer.from(PNG))).toBe(true);
      } finally {
        release();
        await n.close();
        await proxy.close();
      }
    },
  );

  it('moves images a page holds as data URLs into files when the page is opened, once, losing nothing', { timeout: 60_000 }, async () => {
    const spaceId = await serverSpace('Legacy');
    const n = await LocalNode.open({ credentials: new MemoryCredentialStore(), probeIntervalMs: 100 });
    try {
      await n.session.connect(s.url, s.token);
      await n.catalog.refresh();
      await n.branches.acquire({ spaceId });
      const dataUrl = `data:image/png;base64,${Buffer.from(PNG).toString('base64')}`;
      const pageId = await n.branches.with({ spaceId }, (branch) =>
        createPage(branch.doc, {
          title: 'Old page',
          markdown: `Before.\n\n![Logo](${dataUrl})\n\nBetween.\n\n![Logo again](${dataUrl})\n\nAfter.\n`,
        }),
      );
      expect(await n.files.migratePage({ spaceId }, pageId)).toBe(2);
      const markdown = await n.branches.with({ spaceId }, (branch) => getPageMarkdown(branch.doc, pageId));
      expect(markdown).not.toMatch(/data:/);
      // Referred to as uploading until the server has the bytes.
      const ids = [...markdown.matchAll(/upload:([A-Za-z0-9_-]+)/g)].map((m) => m[1] as string);
      // The same picture twice is one file; the text around it is untouched.
      expect(ids).toHaveLength(2);
      expect(new Set(ids).size).toBe(1);
      expect(markdown).toMatch(/Before\.[\s\S]*Between\.[\s\S]*After\./);
      const fileId = ids[0] as string;
      const local = await n.files.read({ spaceId }, fileId);
      expect(local?.contentType).toBe('image/png');
      expect(Buffer.from(local?.bytes ?? []).equals(Buffer.from(PNG))).toBe(true);
      // Once: opening the page again moves nothing.
      expect(await n.files.migratePage({ spaceId }, pageId)).toBe(0);
      await eventually(async () => (await n.session.status()).pendingMutations === 0, 'the upload', 30_000);
      expect((await serverBytes(spaceId, fileId)).equals(Buffer.from(PNG))).toBe(true);
      expect(await n.branches.with({ spaceId }, (branch) => getPageMarkdown(branch.doc, pageId))).toContain(`file:${fileId}`);
    } finally {
      await n.close();
    }
  });

  it('keeps the files of a local space here, and uploads them when it is published', async () => {
    const n = await LocalNode.open({ credentials: new MemoryCredentialStore(), probeIntervalMs: 100 });
    try {
      await n.session.connect(s.url, s.token);
      const space = await n.catalog.createSpace({ title: 'Local first' });
      const file = await n.files.put({ spaceId: space.id }, { name: 'local.png', contentType: 'image/png', bytes: PNG });
      await n.branches.with({ spaceId: space.id }, (branch) => createPage(branch.doc, { title: 'Pic', markdown: `![Pic](${file.src})\n` }));
      expect(await n.queue.entries()).toEqual([]);
      const published = await n.catalog.publishSpace(space.id, s.orgId);
      await eventually(async () => (await n.session.status()).pendingMutations === 0, 'the publication and upload', 30_000);
      expect((await n.session.status()).failed).toBe(0);
      const remoteId = (await n.db.query<{ remote_id: string }>('SELECT remote_id FROM spaces WHERE id = $1', [published.id]))[0]
        ?.remote_id as string;
      expect((await serverBytes(remoteId, file.id)).equals(Buffer.from(PNG))).toBe(true);
    } finally {
      await n.close();
    }
  });

  it('when the server refuses to publish a space, its files wait here for the next publication', async () => {
    const reader = await s.live.t.member(s.orgId, 'read');
    const n = await LocalNode.open({ credentials: new MemoryCredentialStore(), probeIntervalMs: 100 });
    try {
      await n.session.connect(s.url, reader.token);
      const space = await n.catalog.createSpace({ title: 'Not mine to publish' });
      const file = await n.files.put({ spaceId: space.id }, { name: 'kept.png', contentType: 'image/png', bytes: PNG });
      await n.catalog.publishSpace(space.id, s.orgId);
      await eventually(async () => (await n.session.status()).failed === 1, 'the refusal', 30_000);
      expect((await n.queue.entries()).map((e) => [e.kind, e.state])).toEqual([['space.publish', 'failed']]);
      const [row] = await n.db.query<{ state: string }>('SELECT state FROM files WHERE id = $1', [file.id]);
      expect(row?.state).toBe('local');
      expect((await n.files.read({ spaceId: space.id }, file.id))?.bytes.byteLength).toBe(PNG.byteLength);
    } finally {
      await n.close();
    }
  });
});
