/** Any value that survives `JSON.stringify` unchanged; what plain (non-Yjs) keys of the layout hold. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A mark as ProseMirror's `Mark.toJSON()` writes it. */
export interface MarkJSON {
  type: string;
  attrs?: Record<string, unknown>;
}

/**
 * A body node as ProseMirror's `Node.toJSON()` writes it: the shape the REST API, the
 * editor and the Yjs conversion all exchange.
 */
export interface NodeJSON {
  type: string;
  attrs?: Record<string, unknown>;
  content?: NodeJSON[];
  text?: string;
  marks?: MarkJSON[];
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Deep copy of a JSON-like value; functions, symbols and cycles are not expected here. */
export function cloneJson<T>(value: T): T {
  return structuredClone(value);
}
