/** Sync updates through this process since it started, for the metrics (`GET /metrics`). */
export class SyncTraffic {
  /** Updates clients sent that were stored. */
  updatesStored = 0;
  /** Update messages sent to clients: each stored update once per other member of its room, and updates of other instances. */
  updatesRelayed = 0;
}

/** A y-websocket sync message (0) carrying an update (2), as opposed to a sync step or awareness. */
export function isRelayedUpdate(message: Uint8Array): boolean {
  return message[0] === 0 && message[1] === 2;
}
