import * as Y from 'yjs';

/** How the state `doc.open` answers is encoded: Yjs's update format v1 or v2. */
export type StateFormat = 'v1' | 'v2';

/** Applies a state answered by `doc.open`, whichever format it is in. */
export function applyState(doc: Y.Doc, state: Uint8Array, format: StateFormat, origin?: unknown): void {
  if (format === 'v2') Y.applyUpdateV2(doc, state, origin);
  else Y.applyUpdate(doc, state, origin);
}

/** The state vector of a state answered by `doc.open`, without decoding it into a doc. */
export function stateVectorOf(state: Uint8Array, format: StateFormat): Uint8Array {
  return format === 'v2' ? Y.encodeStateVectorFromUpdateV2(state) : Y.encodeStateVectorFromUpdate(state);
}
