import { describe, expect, it } from 'vitest';
import { IPC_CHANNELS } from '../common/ipc';
import { IpcSession } from './IpcSession';
import { LocalNode } from './LocalNode';
import { type PartChannels, partChannels } from './partChannels';

describe('the channel table', () => {
  it('answers every channel of the contract, and a window reaches the node through it', async () => {
    const node = await LocalNode.open({ autoSync: false });
    try {
      const session = new IpcSession(node, () => {});
      await node.session.useLocal();
      for (const channel of IPC_CHANNELS) {
        const answer = await session.invoke(channel, {});
        // Inputs are wrong for most channels: what matters is that none is unknown.
        if (!answer.ok) expect(answer.error.code, channel).not.toBe('unknown-channel');
      }
      const created = await session.invoke('spaces.create', { title: 'Through the table' });
      expect(created.ok).toBe(true);
      const catalog = await session.invoke('catalog.get', {});
      expect(catalog.ok && (catalog.output as Awaited<ReturnType<typeof node.catalog.get>>).localSpaces.map((s) => s.title)).toContain(
        'Through the table',
      );
      await session.close();
    } finally {
      await node.close();
    }
  });

  it('is checked against the contract when compiled', () => {
    const { 'spaces.create': _dropped, ...rest } = partChannels;
    // @ts-expect-error a channel of the contract left out
    const missing: PartChannels = rest;
    // @ts-expect-error a channel the contract does not have
    const unknown: PartChannels = { ...partChannels, 'spaces.nope': async () => ({}) };
    // @ts-expect-error an output the contract does not allow
    const mistyped: PartChannels = { ...partChannels, 'outbox.list': async () => 'not a list' };
    expect([missing, unknown, mistyped].every(Boolean)).toBe(true);
  });
});
