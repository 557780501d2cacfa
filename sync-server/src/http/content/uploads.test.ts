import { addFile, createPage } from '@quire/shared/content/index';
import { newId } from '@quire/shared/ids';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestServer } from '../../testing/harness';
import { editLive } from '../../testing/testEdits';

const MAX_FILE_BYTES = 64 * 1024;

let t: TestServer;
beforeAll(async () => {
  t = await TestServer.start({ maxFileBytes: MAX_FILE_BYTES });
});
afterAll(async () => t?.close());

/** A 1×1 PNG. */
const PNG: Uint8Array<ArrayBuffer> = Uint8Array.from(
  Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64'),
);

async function space(token: string, orgId: string) {
  const res = await t.post(`/v1/orgs/${orgId}/spaces`, token, { title: 'Docs' });
  expect(res.status).toBe(201);
  return res.body as { id: string };
}

function upload(path: string, token: string, bytes: Uint8Array<ArrayBuffer>, type = 'image/png', name = 'diagram.png') {
  return t.request('PUT', `${path}?name=${encodeURIComponent(name)}`, { token, raw: bytes, headers: { 'content-type': type } });
}

/** Follows a download link the API handed out. */
async function download(url: string) {
  const u = new URL(url);
  const res = await t.app.request(`http://quire.test${u.pathname}${u.search}`);
  return { status: res.status, type: res.headers.get('content-type'), bytes: new Uint8Array(await res.arrayBuffer()) };
}

describe('file uploads', () => {
  it('stores a file under the id the editor chose, once, and serves its bytes', async () => {
    const { orgId, admin, members } = await t.org(['edit']);
    const s = await space(admin.token, orgId);
    const fileId = newId();
    const first = await upload(`/v1/spaces/${s.id}/content/files/${fileId}`, members[0]!.token, PNG);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ id: fileId, name: 'diagram.png', contentType: 'image/png', size: PNG.byteLength });
    const served = await download(first.body.downloadURL);
    expect(served).toMatchObject({ status: 200, type: 'image/png' });
    expect(Buffer.from(served.bytes).equals(Buffer.from(PNG))).toBe(true);

    // A repeated upload (its answer was lost) is no new file.
    const again = await upload(`/v1/spaces/${s.id}/content/files/${fileId}`, members[0]!.token, PNG);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: fileId, size: PNG.byteLength });
    // Other bytes never replace a file under readers.
    const other = await upload(`/v1/spaces/${s.id}/content/files/${fileId}`, members[0]!.token, Uint8Array.from([1, 2, 3]));
    expect(other.status).toBe(409);
    expect(other.body.error.message).toMatch(/already holds other bytes/);
    expect(Buffer.from((await download(first.body.downloadURL)).bytes).equals(Buffer.from(PNG))).toBe(true);
  });

  it('lists the file with its download link once the branch references it', async () => {
    const { orgId, admin } = await t.org();
    const s = await space(admin.token, orgId);
    const fileId = newId();
    expect((await upload(`/v1/spaces/${s.id}/content/files/${fileId}`, admin.token, PNG)).status).toBe(201);
    await editLive(t.db, { spaceId: s.id }, (doc) => {
      addFile(doc, { id: fileId, name: 'diagram.png', contentType: 'image/png', size: PNG.byteLength });
      createPage(doc, { title: 'Guide', markdown: `![Diagram](file:${fileId})\n` });
    });
    const file = await t.get(`/v1/spaces/${s.id}/content/files/${fileId}`, admin.token);
    expect(file.status).toBe(200);
    expect(file.body.downloadURL).not.toBe('');
    expect((await download(file.body.downloadURL)).status).toBe(200);

    // An export carries the file as an asset the page points at, never inline.
    const res = await t.app.request(`http://quire.test/v1/spaces/${s.id}/content/export?format=markdown&archive=zip`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(res.status).toBe(200);
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const asset = Object.keys(files).find((name) => name.startsWith('.gitbook/assets/') && name.endsWith('diagram.png'));
    expect(asset).toBeDefined();
    expect(Buffer.from(files[asset as string] as Uint8Array).equals(Buffer.from(PNG))).toBe(true);
    const pages = Object.entries(files).filter(([name]) => name.endsWith('.md') && name !== 'SUMMARY.md');
    const markdown = pages.map(([, bytes]) => Buffer.from(bytes).toString('utf8')).join('\n');
    expect(markdown).toContain('.gitbook/assets/');
    expect(markdown).not.toMatch(/base64|data:image/);
  });

  it('lets only editors upload, and hides spaces of other organizations', async () => {
    const { orgId, admin, members } = await t.org(['read', 'comment']);
    const s = await space(admin.token, orgId);
    const path = `/v1/spaces/${s.id}/content/files/${newId()}`;
    for (const member of members) {
      const refused = await upload(path, member.token, PNG);
      expect(refused.status).toBe(403);
    }
    const other = await t.org();
    const hidden = await upload(path, other.admin.token, PNG);
    expect(hidden.status).toBe(404);
    expect(hidden.body.error.message).toBe('No matching space found.');
    // The refused uploads stored nothing: the id is still free.
    expect((await upload(path, admin.token, Uint8Array.from([9]))).status).toBe(201);
  });

  it('answers bad input with 400 naming the field, and a too large file with 413', async () => {
    const { orgId, admin } = await t.org();
    const s = await space(admin.token, orgId);
    const base = `/v1/spaces/${s.id}/content/files`;
    const short = await upload(`${base}/short`, admin.token, PNG);
    expect(short.status).toBe(400);
    expect(short.body.error.message).toMatch(/path parameter field "fileId"/);
    const noName = await t.request('PUT', `${base}/${newId()}`, { token: admin.token, raw: PNG, headers: { 'content-type': 'image/png' } });
    expect(noName.status).toBe(400);
    expect(noName.body.error.message).toMatch(/query parameter field "name"/);
    const slash = await upload(`${base}/${newId()}`, admin.token, PNG, 'image/png', '../x.png');
    expect(slash.status).toBe(400);
    expect(slash.body.error.message).toMatch(/"name"/);
    const badType = await upload(`${base}/${newId()}`, admin.token, PNG, 'not a type');
    expect(badType.status).toBe(400);
    expect(badType.body.error.message).toMatch(/header field "content-type"/);
    const empty = await upload(`${base}/${newId()}`, admin.token, new Uint8Array(0));
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toMatch(/body/);
    const huge = await upload(`${base}/${newId()}`, admin.token, new Uint8Array(MAX_FILE_BYTES + 1));
    expect(huge.status).toBe(413);
    expect(huge.body.error.message).toMatch(/MAX_FILE_BYTES/);
    // JSON bodies keep their own limit and rules.
    const json = await t.request('PATCH', `/v1/spaces/${s.id}`, {
      token: admin.token,
      raw: 'x',
      headers: { 'content-type': 'text/plain' },
    });
    expect([400, 415]).toContain(json.status);
  });

  it('uploads files of a change request into its space, for its editors only', async () => {
    const { orgId, admin, members } = await t.org(['read']);
    const s = await space(admin.token, orgId);
    const cr = await t.post(`/v1/spaces/${s.id}/change-requests`, admin.token, { subject: 'Pictures' });
    expect(cr.status).toBe(200);
    const path = `/v1/spaces/${s.id}/change-requests/${cr.body.id}/content/files/${newId()}`;
    expect((await upload(path, members[0]!.token, PNG)).status).toBe(403);
    const stored = await upload(path, admin.token, PNG);
    expect(stored.status).toBe(201);
    expect((await download(stored.body.downloadURL)).status).toBe(200);
    const unknown = await upload(`/v1/spaces/${s.id}/change-requests/${newId()}/content/files/${newId()}`, admin.token, PNG);
    expect(unknown.status).toBe(404);
  });

  it('is described in the OpenAPI document', async () => {
    const doc = await t.get('/v1/openapi.json', '');
    const op = doc.body.paths['/v1/spaces/{spaceId}/content/files/{fileId}'].put;
    expect(op['x-quire-extension']).toBe(true);
    expect(op.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['fileId', 'name', 'content-type']));
    expect(doc.body.paths['/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}'].put).toBeDefined();
  });
});
