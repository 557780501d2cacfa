import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spaceRoom } from '@quire/shared/sync';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as Y from 'yjs';
import { GitServer, git } from '../../testing/gitServer';
import { LiveServer, acknowledged, synced, waitFor } from '../../testing/syncClients';

/** `waitFor`, looking every quarter second: each look asks the server or runs git. */
const eventually = (check: () => boolean | Promise<boolean>, what: string, ms: number) =>
  waitFor(async () => (await check()) || (await new Promise((r) => setTimeout(r, 250)), false), what, ms);

const QUIET_MS = 300;

let s: LiveServer;
let g: GitServer;
const dataDir = mkdtempSync(join(tmpdir(), 'quire-git-live-'));

vi.setConfig({ testTimeout: 240_000, hookTimeout: 120_000 });

beforeAll(async () => {
  g = await GitServer.start();
  s = await LiveServer.start({ sync: { quietMs: QUIET_MS }, allowPrivateFetch: true, dataDir });
});
afterAll(async () => {
  await s?.close();
  await g?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const REPO = {
  'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Guide](guide.md)\n',
  'README.md': '# Welcome\n\nHello.\n',
  'guide.md': '# Guide\n\nThe quick fox jumps.\n\nSecond paragraph stays.\n',
};

/** The last text of a page's first paragraph, where an editor types. */
function paragraphText(doc: Y.Doc, pageId: string): Y.XmlText {
  const body = (doc.getMap('pages').get(pageId) as Y.Map<unknown>).get('body') as Y.XmlFragment;
  const paragraph = body.toArray().find((n) => n instanceof Y.XmlElement && n.nodeName === 'paragraph') as Y.XmlElement;
  return paragraph.toArray().findLast((n) => n instanceof Y.XmlText) as Y.XmlText;
}

describe('git/sync: a live edit alone', () => {
  it('typing in main, with no change request, becomes one commit pushed after the quiet period', async () => {
    const { orgId, admin } = await s.t.org();
    g.createRepository('live', REPO, { message: 'Docs' });
    const spaceId = await s.space(orgId, admin.token);
    const put = await s.t.put(`/v1/spaces/${spaceId}/git/sync`, admin.token, {
      url: g.url('live'),
      ref: 'main',
      provider: 'generic',
      firstSync: 'git',
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const synced_ = async () => (await s.t.get(`/v1/spaces/${spaceId}/git/sync`, admin.token)).body.commit as string | undefined;
    // The server's own runner brings the branch in.
    await eventually(async () => (await synced_()) === g.log('live')[0]!.hash, 'the first sync', 120_000);
    const pages = (await s.t.get(`/v1/spaces/${spaceId}/content`, admin.token)).body.pages as { id: string; title: string }[];
    const guide = pages.find((p) => p.title === 'Guide')!.id;

    const p = s.provider(spaceRoom(spaceId), admin.token);
    await synced(p);
    for (const ch of ' Typed live.') {
      const text = paragraphText(p.doc, guide);
      text.insert(text.length, ch);
    }
    await acknowledged(p);

    // Nobody asks for a push: the quiet period's revision queues it, and the runner makes it.
    await eventually(() => g.log('live').length === 2, 'the commit of the live edit', 120_000);
    const [commit] = g.log('live');
    expect(commit).toMatchObject({ subject: 'Edits in Quire' });
    expect(commit!.committer).toMatch(/^Quire </);
    const work = g.checkout('live');
    try {
      expect(readFileSync(join(work, 'guide.md'), 'utf8')).toContain('The quick fox jumps. Typed live.');
      // The edit is the commit's only change, written by the one who typed.
      expect(git(work, 'show', '--name-only', '--format=%ae', 'HEAD').trim().split('\n').filter(Boolean)).toEqual([
        admin.email,
        'guide.md',
      ]);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
    await eventually(async () => (await synced_()) === commit!.hash, 'the base to be the pushed commit', 30_000);
    const info = (await s.t.get(`/v1/spaces/${spaceId}/git/info`, admin.token)).body;
    expect(info.operation, JSON.stringify(info.operation)).toMatchObject({ state: 'success', commit: commit!.hash });
  });
});
