import { SyncMessage } from '@quire/shared/sync';
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import * as awarenessProtocol from 'y-protocols/awareness';
import * as Y from 'yjs';

/** y-protocols sync message subtypes. */
export const SyncStep = { step1: 0, step2: 1, update: 2 } as const;

/** A decoded client message; anything else is a `ProtocolError`. */
export type ClientMessage =
  | { type: 'syncStep1'; stateVector: Uint8Array }
  | { type: 'update'; update: Uint8Array; step2: boolean }
  | { type: 'awareness'; update: Uint8Array }
  | { type: 'queryAwareness' }
  | { type: 'auth' };

/** A message that does not follow the protocol: the connection that sent it is closed. */
export class ProtocolError extends Error {}

/**
 * Decodes one message. Only the framing is checked here; the update and awareness
 * payloads are validated where they are applied.
 */
export function decodeMessage(data: Uint8Array): ClientMessage {
  try {
    const decoder = decoding.createDecoder(data);
    const type = decoding.readVarUint(decoder);
    let msg: ClientMessage;
    switch (type) {
      case SyncMessage.sync: {
        const step = decoding.readVarUint(decoder);
        const payload = payloadOf(decoder);
        if (step === SyncStep.step1) msg = { type: 'syncStep1', stateVector: payload };
        else if (step === SyncStep.step2 || step === SyncStep.update)
          msg = { type: 'update', update: payload, step2: step === SyncStep.step2 };
        else throw new ProtocolError(`unknown sync step ${step}`);
        break;
      }
      case SyncMessage.awareness:
        msg = { type: 'awareness', update: payloadOf(decoder) };
        break;
      case SyncMessage.queryAwareness:
        msg = { type: 'queryAwareness' };
        break;
      case SyncMessage.auth:
        msg = { type: 'auth' };
        break;
      default:
        throw new ProtocolError(`unknown message type ${type}`);
    }
    if (decoder.pos > data.length) throw new ProtocolError('message shorter than its declared length');
    return msg;
  } catch (err) {
    if (err instanceof ProtocolError) throw err;
    throw new ProtocolError(`undecodable message: ${(err as Error).message}`);
  }
}

/**
 * A length-prefixed payload, copied into a buffer of its own: what is validated and what
 * is stored are then the same bytes, never a view on the socket's (possibly pooled) buffer
 * that a later read could run past.
 */
function payloadOf(decoder: decoding.Decoder): Uint8Array {
  const view = decoding.readVarUint8Array(decoder);
  if (decoder.pos > decoder.arr.length) throw new ProtocolError('payload longer than the message');
  return view.slice();
}

function message(write: (e: encoding.Encoder) => void): Uint8Array {
  const e = encoding.createEncoder();
  write(e);
  return encoding.toUint8Array(e);
}

export function encodeSyncStep1(doc: Y.Doc): Uint8Array {
  return message((e) => {
    encoding.writeVarUint(e, SyncMessage.sync);
    encoding.writeVarUint(e, SyncStep.step1);
    encoding.writeVarUint8Array(e, Y.encodeStateVector(doc));
  });
}

/** The reply to a client's step 1: `update`, what it is missing (see `RoomDocument.missingFrom`). */
export function encodeSyncStep2(update: Uint8Array): Uint8Array {
  return message((e) => {
    encoding.writeVarUint(e, SyncMessage.sync);
    encoding.writeVarUint(e, SyncStep.step2);
    encoding.writeVarUint8Array(e, update);
  });
}

export function encodeUpdate(update: Uint8Array): Uint8Array {
  return message((e) => {
    encoding.writeVarUint(e, SyncMessage.sync);
    encoding.writeVarUint(e, SyncStep.update);
    encoding.writeVarUint8Array(e, update);
  });
}

export function encodeAwareness(update: Uint8Array): Uint8Array {
  return message((e) => {
    encoding.writeVarUint(e, SyncMessage.awareness);
    encoding.writeVarUint8Array(e, update);
  });
}

export function encodeAwarenessStates(awareness: awarenessProtocol.Awareness, clients: number[]): Uint8Array {
  return encodeAwareness(awarenessProtocol.encodeAwarenessUpdate(awareness, clients));
}

/** `permission denied` (y-protocols auth): how a refused update is reported without closing. */
export function encodePermissionDenied(reason: string): Uint8Array {
  return message((e) => {
    encoding.writeVarUint(e, SyncMessage.auth);
    encoding.writeVarUint(e, 0);
    encoding.writeVarString(e, reason);
  });
}
