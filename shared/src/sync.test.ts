import { describe, expect, it } from 'vitest';
import { SYNC_PATH, SyncClose, SyncCloseReason, changeRequestRoom, parseRoom, roomDocId, spaceRoom } from './sync';

const SPACE = 'Space0000000000000000A';
const CR = 'Change000000000000000B';

describe('sync rooms', () => {
  it('names rooms exactly as clients build them: spaces/<spaceId> and spaces/<spaceId>/change-requests/<changeRequestId>', () => {
    expect(SYNC_PATH).toBe('/v1/sync');
    expect(spaceRoom(SPACE)).toBe(`spaces/${SPACE}`);
    expect(changeRequestRoom(SPACE, CR)).toBe(`spaces/${SPACE}/change-requests/${CR}`);
    expect(parseRoom(`spaces/${SPACE}`)).toEqual({ kind: 'space', spaceId: SPACE });
    expect(parseRoom(`spaces/${SPACE}/change-requests/${CR}`)).toEqual({ kind: 'changeRequest', spaceId: SPACE, changeRequestId: CR });
  });

  it('refuses anything else as a room', () => {
    for (const name of [
      '',
      'spaces',
      `spaces/${SPACE}/`,
      `space/${SPACE}`,
      `spaces/${SPACE}/change-requests`,
      `spaces/${SPACE}/changes/${CR}`,
      `space/${SPACE}/change-requests/${CR}`,
      `orgs/${SPACE}/change-requests/${CR}`,
      `spaces/${SPACE}/change-requests/${CR}/more`,
      'spaces/not an id',
      `spaces/${'x'.repeat(65)}`,
    ]) {
      expect(parseRoom(name), name).toBeUndefined();
    }
  });

  it('maps a room to the branch document the REST side reads and writes', () => {
    expect(roomDocId({ kind: 'space', spaceId: SPACE })).toBe(`space:${SPACE}`);
    expect(roomDocId({ kind: 'changeRequest', spaceId: SPACE, changeRequestId: CR })).toBe(`cr:${CR}`);
  });
});

describe('sync close codes', () => {
  /** The stock y-websocket provider stops reconnecting on 4400-4499 and retries every other code. */
  const final = (code: number) => code >= 4400 && code < 4500;

  it('makes refusals final and passing troubles transient, as the stock provider reads them', () => {
    expect([SyncClose.badMessage, SyncClose.unauthenticated, SyncClose.notFound].every(final)).toBe(true);
    expect([SyncClose.tooSlow, SyncClose.messageTooBig, SyncClose.storageFailed, SyncClose.restarting].some(final)).toBe(false);
    expect(SyncClose.messageTooBig).toBe(1009);
  });

  it('keeps every close reason within the 123 bytes a close frame allows', () => {
    for (const reason of Object.values(SyncCloseReason)) expect(Buffer.byteLength(reason), reason).toBeLessThanOrEqual(123);
  });
});
