import { createPage } from '@quire/shared/content/index';
import { spaceRoom } from '@quire/shared/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { LiveServer, acknowledged, synced } from '../../testing/syncClients';
import { WebhookReceiver } from '../../testing/webhookReceiver';

const QUIET_MS = 400;

let s: LiveServer;
let receiver: WebhookReceiver;
beforeAll(async () => {
  s = await LiveServer.start({ sync: { quietMs: QUIET_MS }, allowPrivateFetch: true, webhooks: { timeoutMs: 10_000, retryBaseMs: 200 } });
  receiver = await WebhookReceiver.start();
});
afterAll(async () => {
  await s?.close();
  await receiver?.close();
});

/** The paragraph text of a page's body, where an editor types. */
function textOf(doc: Y.Doc, pageId: string): Y.XmlText {
  const body = (doc.getMap('pages').get(pageId) as Y.Map<unknown>).get('body') as Y.XmlFragment;
  return (body.get(0) as Y.XmlElement).get(0) as Y.XmlText;
}

const contentEvents = () => receiver.accepted().filter((r) => r.payload.type === 'page.content_changed');

describe('webhooks on live edits', () => {
  it('sends one page.content_changed per quiet-period revision, not one per keystroke', async () => {
    const { orgId, admin } = await s.t.org();
    const spaceId = await s.space(orgId, admin.token);
    const hook = await s.t.post(`/v1/orgs/${orgId}/webhooks`, admin.token, { url: receiver.url, events: ['page.content_changed'] });
    expect(hook.status).toBe(201);
    receiver.secret = hook.body.secret;

    const p = s.provider(spaceRoom(spaceId), admin.token);
    await synced(p);
    const pageId = createPage(p.doc, { title: 'Typed', markdown: 'Hello' });
    // Thirty keystrokes, each its own update, closer together than the quiet period.
    for (const ch of ' from a live editor, typed.') {
      const text = textOf(p.doc, pageId);
      text.insert(text.length, ch);
      await new Promise((r) => setTimeout(r, 15));
    }
    await acknowledged(p);
    await receiver.waitFor((r) => contentEvents().length >= 1, 20_000, 'the content event');
    // Another quiet period and more: no second event for the same edits.
    await new Promise((r) => setTimeout(r, QUIET_MS * 4));
    expect(contentEvents()).toHaveLength(1);
    const event = contentEvents()[0]?.payload as any;
    expect(event).toMatchObject({
      space: { id: spaceId },
      changeRequest: null,
      revision: { id: (await s.t.get(`/v1/spaces/${spaceId}`, admin.token)).body.revision },
      data: { pages: [{ id: pageId, url: `http://quire.test/v1/spaces/${spaceId}/content/page/${pageId}` }] },
    });
    expect(contentEvents()[0]?.verified).toBe(true);

    // The next burst of typing is the next revision, and the next event.
    textOf(p.doc, pageId).insert(0, 'Edited: ');
    await acknowledged(p);
    await receiver.waitFor((r) => contentEvents().length >= 2, 20_000, 'the second content event');
    expect(contentEvents()[1]?.payload.id).not.toBe(event.id);
    p.destroy();
  });
});
