/** The part of a connection a room talks to. */
export interface RoomMember {
  readonly controlled: Set<number>;
  /** The user editing through this connection: recorded as a change request's contributor. */
  readonly creds: { userId: string };
  send(data: Uint8Array): void;
  close(code: number, reason: string): void;
  /** Its update was not applied: the branch stopped taking edits (tell the client why). */
  refused(reason: string): void;
}
