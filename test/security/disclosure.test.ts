import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../sync-server/src/testing/processes';
import { WebhookReceiver } from '../../sync-server/src/testing/webhookReceiver';
import { World } from './world';

/**
 * What the API shows beyond what the caller may read: credentials in a webhook's URL are
 * used, never shown, as the signing secret is; a site's structure names the spaces it
 * publishes without opening them.
 */
let w: World;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await WebhookReceiver.start();
  w = await World.start({ ALLOW_PRIVATE_FETCH: 'true', WEBHOOK_RETRY_BASE_MS: '600000' });
});
afterAll(async () => {
  await w?.stop();
  await receiver?.close();
});

/** Polls `read` until `done` holds over what it answered. */
async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const v = await read();
    if (done(v)) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('webhook URLs with credentials', () => {
  const USER = 'hook-user';
  const PASSWORD = 's3cret-pass';
  const hooks = () => `/v1/orgs/${w.a.orgId}/webhooks`;
  const withCredentials = (url: string) => url.replace('://', `://${USER}:${PASSWORD}@`);

  it('are delivered with, and never shown: not when made, read, listed or changed', async () => {
    const space = await w.space(w.a, 'Hooked');
    const url = withCredentials(receiver.url);
    const created = await w.post(hooks(), w.a.admin.token, { url, events: ['change_request.created'], spaces: [space] });
    expect(created.status, created.text).toBe(201);
    const path = `${hooks()}/${created.body.id}`;
    const shown = [
      created,
      await w.get(path, w.a.admin.token),
      await w.get(hooks(), w.a.admin.token),
      await w.patch(path, w.a.admin.token, { description: 'CI' }),
    ];
    for (const res of shown) {
      expect(res.status).toBe(200 + (res === created ? 1 : 0));
      expect(res.text).not.toContain(PASSWORD);
      expect(res.text).not.toContain(USER);
    }
    // The rest of the address stays as it was given, so admins can still tell webhooks apart.
    const presented = new URL((shown[1] as { body: { url: string } }).body.url);
    expect(`${presented.host}${presented.pathname}`).toBe(`${new URL(receiver.url).host}/hook`);
    expect(presented.password).not.toBe(PASSWORD);

    receiver.secret = created.body.secret;
    const cr = await w.post(`/v1/spaces/${space}/change-requests`, w.a.writer.token, { subject: 'Hooked change' });
    expect(cr.status, cr.text).toBe(200);
    await receiver.waitFor((r) => r.received.some((x) => x.payload.type === 'change_request.created'));
    const delivered = receiver.received.find((x) => x.payload.type === 'change_request.created');
    expect(delivered?.verified).toBe(true);
    expect(delivered?.headers.authorization).toBe(`Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`);
  });

  it('stay out of the errors of failed deliveries', async () => {
    const space = await w.space(w.a, 'Hooked to nothing');
    const url = withCredentials(`http://127.0.0.1:${await freePort()}/gone`);
    const created = await w.post(hooks(), w.a.admin.token, { url, events: ['change_request.created'], spaces: [space] });
    expect(created.status, created.text).toBe(201);
    expect((await w.post(`/v1/spaces/${space}/change-requests`, w.a.writer.token, { subject: 'Lost' })).status).toBe(200);
    const deliveries = `${hooks()}/${created.body.id}/deliveries`;
    const failed = await until(
      () => w.get(deliveries, w.a.admin.token),
      (res) => res.body.items?.[0]?.attempts?.length > 0,
      'a failed attempt',
    );
    expect(failed.body.items[0].attempts[0].error).toMatch(/127\.0\.0\.1/);
    expect(failed.text).not.toContain(PASSWORD);
    expect(failed.text).not.toContain(USER);
  });
});

describe("a published site's spaces", () => {
  it('show a member only what they may read of a space closed to them, with permissions that say so', async () => {
    const closed = await w.space(w.a, 'Board minutes');
    expect((await w.patch(`/v1/spaces/${closed}`, w.a.admin.token, { defaultLevel: null })).status).toBe(200);
    const cr = await w.post(`/v1/spaces/${closed}/change-requests`, w.a.admin.token, { subject: 'Q3 layoffs' });
    expect(cr.status, cr.text).toBe(200);
    const full = await w.get(`/v1/spaces/${closed}`, w.a.admin.token);
    expect(full.body).toMatchObject({ changeRequests: 1, permissions: { view: true } });
    expect(full.body.revision).not.toBe('');
    // The writer is a member of A, but the space is closed to them.
    expect((await w.get(`/v1/spaces/${closed}`, w.a.writer.token)).status).toBe(404);

    const created = await w.post(`/v1/orgs/${w.a.orgId}/sites`, w.a.admin.token, {
      title: 'Board',
      spaces: [closed],
      visibility: 'public',
    });
    expect(created.status, created.text).toBe(200);
    const site = `/v1/orgs/${w.a.orgId}/sites/${created.body.id}`;
    expect((await w.post(`${site}/publish`, w.a.admin.token)).status).toBe(200);

    const asAdmin = await w.get(`${site}/published`, w.a.admin.token);
    expect(asAdmin.body.structure.structure[0].space).toMatchObject({
      id: closed,
      changeRequests: 1,
      permissions: { view: true, edit: true },
    });

    for (const [who, token] of [
      ['a member without access', w.a.writer.token],
      ['another organization', w.b.writer.token],
    ] as const) {
      for (const res of [await w.get(`${site}/published`, token), await w.get(`${site}/site-spaces`, token)]) {
        expect(res.status, who).toBe(200);
        const siteSpace = (res.body.structure?.structure ?? res.body.items)[0];
        const space = siteSpace.space;
        expect(space.id, who).toBe(closed);
        expect(Object.values(space.permissions).filter(Boolean), who).toEqual([]);
        expect(res.text, who).not.toContain(full.body.revision);
        expect(space, who).toMatchObject({ comments: 0, changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0 });
        expect(space.shareKey, who).toBeUndefined();
      }
    }
  });
});
