import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { resumeAbandonedRuns } from '../../core/translations/schedule';
import * as store from '../../store/translations';
import { TestServer } from '../../testing/harness';

let t: TestServer;
beforeAll(async () => {
  t = await TestServer.start();
  // No provider: a run that happens ends `failed` with NO_PROVIDER, counted in its stats.
  t.deps.config.translation = loadConfig({}).translation;
});
afterAll(async () => {
  await t?.close();
});

describe('a translation run asked of an instance that died before it claimed it', () => {
  it('is taken over by another once the asking instance’s lease runs out; one never asked for is left alone', async () => {
    const { orgId, members } = await t.org(['create', 'read']);
    const token = members[0]?.token as string;
    const space = await t.post(`/v1/orgs/${orgId}/spaces`, token, { title: 'Handbook', language: 'en' });
    expect(space.status).toBe(201);
    const url = `/v1/orgs/${orgId}/translations`;
    const asked = (await t.post(url, token, { source: { space: space.body.id }, language: 'fr' })).body;
    const neverAsked = (await t.post(url, token, { source: { space: space.body.id }, language: 'de' })).body;
    expect([asked.status, neverAsked.status]).toEqual(['pending', 'pending']);

    // The run is asked for (as `POST …/run` does), and the instance dies before it claims it.
    await store.requestRun(t.db, asked.id);
    // While the asking instance may still claim it, nobody else does.
    expect(await resumeAbandonedRuns(t.deps)).toEqual([]);

    // Its lease runs out.
    await t.db.query("UPDATE translations SET lease_until = now() - interval '1 second' WHERE id = $1", [asked.id]);
    expect(await resumeAbandonedRuns(t.deps)).toEqual([asked.id]);
    let run: any;
    for (let i = 0; i < 500 && run?.status !== 'failed'; i++) {
      run = (await t.get(`${url}/${asked.id}`, token)).body;
      if (run.status !== 'failed') await new Promise((r) => setTimeout(r, 20));
    }
    expect(run).toMatchObject({ status: 'failed', error: { code: 'NO_PROVIDER' }, stats: { runs: 1 } });

    // A translation nobody asked to run stays pending, never run.
    expect((await t.get(`${url}/${neverAsked.id}`, token)).body).toMatchObject({ status: 'pending', stats: { runs: 0 } });
    expect(await resumeAbandonedRuns(t.deps)).toEqual([]);
  });
});
