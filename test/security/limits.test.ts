import { chmodSync, lstatSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { World } from './world';

/**
 * Resource limits and inputs shaped to hurt: alias bombs, zip bombs, a data directory other
 * local accounts could read, ids that look like object properties.
 */
const IMPORT_MAX_BYTES = 8 * 1024 * 1024;

let w: World;
let fixtures: Server;
let origin: string;
const served = new Map<string, Buffer>();

/** A zip archive whose entries may declare another size than what they inflate to. */
function zip(entries: { name: string; data: Buffer; declaredSize?: number }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const packed = deflateRawSync(e.data);
    const size = e.declaredSize ?? e.data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc32(e.data), 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc32(e.data), 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

/** Every folder and file below `dir` with its permission bits. */
function modes(dir: string): { path: string; dir: boolean; mode: number }[] {
  const out = [{ path: dir, dir: true, mode: lstatSync(dir).mode & 0o777 }];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const st = lstatSync(path);
    if (st.isDirectory()) out.push(...modes(path));
    else if (st.isFile()) out.push({ path, dir: false, mode: st.mode & 0o777 });
  }
  return out;
}

beforeAll(async () => {
  fixtures = createServer((req, res) => {
    const body = served.get(req.url ?? '');
    if (body) res.writeHead(200, { 'content-type': 'application/zip' }).end(body);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => fixtures.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(fixtures.address() as AddressInfo).port}`;
  w = await World.start({ ALLOW_PRIVATE_FETCH: 'true', IMPORT_MAX_BYTES: String(IMPORT_MAX_BYTES) }, (dataDir) => {
    // As an older version, or a copy made with the default umask, left it: open to every local account.
    for (const entry of modes(dataDir)) chmodSync(entry.path, entry.dir ? 0o755 : 0o666);
    writeFileSync(join(dataDir, 'left-over.bin'), 'secret', { mode: 0o666 });
    chmodSync(join(dataDir, 'left-over.bin'), 0o666);
  });
});
afterAll(async () => {
  await w?.stop();
  fixtures?.close();
});

describe('the data directory', () => {
  it('is private once the server has started: folders 0700, files 0600, the database included', async () => {
    // A write, so the database has surely created its files by now.
    await w.space(w.a);
    const open = modes(w.dataDir).filter((e) => e.mode !== (e.dir ? 0o700 : 0o600));
    expect(open.map((e) => `${e.path.slice(w.dataDir.length) || '/'} ${e.mode.toString(8)}`)).toEqual([]);
  });
});

describe('zip bombs', () => {
  it('refuses an archive whose entry inflates beyond its declared size, importing nothing', async () => {
    const space = await w.space(w.a, 'Imports');
    served.set(
      '/bomb.zip',
      zip([
        { name: 'README.md', data: Buffer.from('# Home\n\nHello.\n') },
        { name: 'assets/bomb.bin', data: Buffer.alloc(40 * 1024 * 1024), declaredSize: 10 },
      ]),
    );
    const res = await w.post(`/v1/spaces/${space}/content/import`, w.a.admin.token, { source: 'markdown', url: `${origin}/bomb.zip` });
    expect(res.status, res.text).toBe(422);
    expect(res.body.error.message).toMatch(/^The archive could not be read: .*Nothing was imported\.$/);
    expect((await w.get(`/v1/spaces/${space}/content/pages`, w.a.admin.token)).body.pages).toEqual([]);
    expect((await w.get('/healthz')).status).toBe(200);
  });

  it('stops at the unpacked-size limit, and still imports an archive within it', async () => {
    const space = await w.space(w.a, 'Imports 2');
    served.set(
      '/large.zip',
      zip([
        { name: 'README.md', data: Buffer.from('# Home\n') },
        { name: 'assets/a.bin', data: Buffer.alloc(IMPORT_MAX_BYTES / 2) },
        { name: 'assets/b.bin', data: Buffer.alloc(IMPORT_MAX_BYTES / 2 + 1) },
      ]),
    );
    const refused = await w.post(`/v1/spaces/${space}/content/import`, w.a.admin.token, { source: 'markdown', url: `${origin}/large.zip` });
    expect(refused.status).toBe(422);
    expect(refused.body.error.message).toContain(`more than ${IMPORT_MAX_BYTES} bytes`);

    served.set('/fine.zip', zip([{ name: 'README.md', data: Buffer.from('# Home\n\nHello.\n') }]));
    const fine = await w.post(`/v1/spaces/${space}/content/import`, w.a.admin.token, { source: 'markdown', url: `${origin}/fine.zip` });
    expect(fine.status, fine.text).toBe(201);
  });
});

describe('YAML alias bombs', () => {
  async function settled(slug: string) {
    for (let i = 0; i < 300; i++) {
      const spec = (await w.get(`/v1/orgs/${w.a.orgId}/openapi/${slug}`, w.a.admin.token)).body;
      if (spec.processingState === 'complete' || spec.processingState === 'failed') return spec;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`spec ${slug} never settled`);
  }

  it('refuses a spec that expands far beyond its size, and keeps parsing ordinary aliases', async () => {
    const head = "openapi: 3.0.0\ninfo: {title: Bomb, version: '1'}\npaths: {}\n";
    const bomb = `${head}x-anchor: &a [${Array(5000).fill('payload').join(', ')}]\nx-bomb: [${Array(999).fill('*a').join(', ')}]\n`;
    const created = await w.post(`/v1/orgs/${w.a.orgId}/openapi`, w.a.admin.token, { slug: 'bomb', source: { text: bomb } });
    expect(created.status, created.text).toBe(201);
    expect((await w.get('/healthz')).status).toBe(200);
    const failed = await settled('bomb');
    expect(failed).toMatchObject({ processingState: 'failed', lastProcessErrorCode: 'PARSE_ERROR' });
    expect(failed.lastProcessedErrors[0].message).toMatch(/expands to more than \d+ nodes/);

    const ordinary = `${head}components:\n  schemas:\n    Id: &id {type: string}\n    User: {type: object, properties: {id: *id, org: *id}}\n`;
    await w.post(`/v1/orgs/${w.a.orgId}/openapi`, w.a.admin.token, { slug: 'ordinary', source: { text: ordinary } });
    expect(await settled('ordinary')).toMatchObject({ processingState: 'complete' });
  });
});

describe('ids that look like object properties', () => {
  it('answer 404, as any unknown id', async () => {
    const space = await w.space(w.a, 'Lookups');
    for (const id of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      for (const path of [`/content/files/${id}`, `/content/page/${id}`, `/content/page/${id}/links`, `/content/files/${id}/backlinks`]) {
        const res = await w.get(`/v1/spaces/${space}${path}`, w.a.admin.token);
        expect(res.status, path).toBe(404);
        expect(res.body.error.code).toBe(404);
      }
    }
  });
});
