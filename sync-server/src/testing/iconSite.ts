import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import sharp from 'sharp';
import { packTarGz } from '../core/content/export/archive';
import { TestServer } from './harness';
import { writePages } from './testContent';

/**
 * A site published from a repository in GitBook's git sync layout whose pages use icons
 * the way GitBook writes them (known and unknown, in paragraphs, headings and tables), a
 * page with its own layout and cover, and a French variant; served over real HTTP.
 */

const text = (lines: string[]) => new TextEncoder().encode(`${lines.join('\n')}\n`);

// Enough pages and words that llms.txt, the sitemap and pages are worth compressing.
const TOPICS = Array.from({ length: 30 }, (_, i) => i + 1);
const FILLER = Array.from(
  { length: 12 },
  (_, i) => `Paragraph ${i + 1}: the sync server keeps every edit, merges change requests and publishes sites.`,
).join('\n\n');

/** A repository in GitBook's git sync layout whose pages use icons the way GitBook writes them. */
export function iconRepository(cover: Uint8Array): Map<string, Uint8Array> {
  return new Map(
    Object.entries({
      'SUMMARY.md': text([
        '# Table of contents',
        '',
        '* [Home](README.md)',
        '* [Icons](icons.md)',
        '* [Landing](landing.md)',
        ...TOPICS.map((n) => `* [Topic ${n}](topic-${n}.md)`),
      ]),
      ...Object.fromEntries(
        TOPICS.map((n) => [
          `topic-${n}.md`,
          text([
            '---',
            `description: What readers need to know about topic number ${n}.`,
            // The first topic is laid out wide, with a heading the outline would list.
            ...(n === 1 ? ['layout:', '  width: wide'] : []),
            '---',
            '',
            `# Topic ${n}`,
            '',
            ...(n === 1 ? ['## In depth', ''] : []),
            FILLER,
          ]),
        ]),
      ),
      'README.md': text(['# Home', '', 'Plain words, no icon at all.']),
      '.gitbook/assets/cover.png': cover,
      'landing.md': text([
        '---',
        'description: A landing page with its own layout.',
        'cover: .gitbook/assets/cover.png',
        'coverY: -10',
        'layout:',
        '  cover:',
        '    visible: true',
        '    size: hero',
        '  title:',
        '    visible: false',
        '  description:',
        '    visible: false',
        '  outline:',
        '    visible: false',
        '  pagination:',
        '    visible: false',
        '---',
        '',
        '# Landing',
        '',
        '<a href="https://example.com/start" class="button primary" data-icon="rocket">Get started</a> <button type="button" class="button secondary" data-action="ask" data-query="How do I start?" data-icon="gitbook-assistant">Ask</button>',
        '',
        '## First steps',
        '',
        '| Who | Email |',
        '| --- | --- |',
        '| Support team | <support.team@example-company.com> |',
        '',
        FILLER,
      ]),
      'icons.md': text([
        '# Icons',
        '',
        'Click <i class="fa-hand-pointer">:hand-pointer:</i> to start, read the <i class="fa-code">:code:</i> and see :globe: the world.',
        '',
        'A made-up one: <i class="fa-no-such-icon-here">:no-such-icon-here:</i> and a bare :zz-not-an-icon: too.',
        '',
        'Times like 10:30:00 and std::map stay as written, and so does `:code:` in code.',
        '',
        '## <i class="fa-rocket">:rocket:</i> Launch',
        '',
        '## :gear: Settings',
        '',
        '<h2><i class="fa-brands fa-github">:github:</i> Source</h2>',
        '',
        '## <i class="fa-unknown-thing">:unknown-thing:</i> Unknown',
        '',
        '| Feature | Where |',
        '| --- | --- |',
        '| <i class="fa-globe">:globe:</i> Web | <i class="fa-not-real">:not-real:</i> nowhere |',
        '| :code: API | :house: home |',
        '',
        FILLER,
      ]),
    }),
  );
}

export interface IconSite {
  t: TestServer;
  /** `http://127.0.0.1:<port>`, where the server listens. */
  origin: string;
  /** The site's root path (`/s/<org>/<basename>`). */
  root: string;
  close(): Promise<void>;
}

export async function startIconSite(): Promise<IconSite> {
  let t: TestServer | undefined;
  let server: ServerType | undefined;
  const port = await new Promise<number>((resolve) => {
    server = serve({ fetch: (req) => (t as TestServer).app.fetch(req), port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
      resolve(info.port),
    );
  });
  const origin = `http://127.0.0.1:${port}`;
  t = await TestServer.start({ publicUrl: origin, allowPrivateFetch: true });
  const cover = await sharp({ create: { width: 1200, height: 400, channels: 3, background: { r: 40, g: 90, b: 200 } } })
    .png()
    .toBuffer();
  const archive = await packTarGz(iconRepository(new Uint8Array(cover)));
  const fixtures = createServer((_req, res) => res.writeHead(200, { 'content-length': archive.length }).end(archive));
  await new Promise<void>((resolve) => fixtures.listen(0, '127.0.0.1', resolve));
  try {
    const { orgId, admin } = await t.org();
    const space = (await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title: 'Docs' })).body.id as string;
    const imported = await t.post(`/v1/spaces/${space}/content/import`, admin.token, {
      source: 'markdown',
      url: `http://127.0.0.1:${(fixtures.address() as AddressInfo).port}/docs.tar.gz`,
    });
    if (imported.status !== 201) throw new Error(`import failed: ${JSON.stringify(imported.body)}`);
    const site = (await t.post(`/v1/orgs/${orgId}/sites`, admin.token, { title: 'Acme', spaces: [space] })).body;
    const base = `/v1/orgs/${orgId}/sites/${site.id}`;
    const french = (await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title: 'Docs (FR)', language: 'fr' })).body.id as string;
    await writePages(t.db, french, [{ title: 'Accueil', markdown: 'Bienvenue dans la documentation.\n' }]);
    const added = await t.post(`${base}/site-spaces`, admin.token, { spaceId: french });
    await t.patch(`${base}/site-spaces/${added.body.id}`, admin.token, { path: 'fr' });
    await t.post(`${base}/publish`, admin.token);
    const running = t;
    return {
      t: running,
      origin,
      root: `/s/${orgId}/${site.basename}`,
      close: async () => {
        server?.close();
        await running.close();
      },
    };
  } finally {
    fixtures.close();
  }
}
