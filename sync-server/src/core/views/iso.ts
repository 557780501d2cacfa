/** Timestamps leave the server as ISO 8601 UTC strings, whatever the driver handed us. */
export function iso(v: Date | string | null | undefined): string | undefined {
  if (v === null || v === undefined) return undefined;
  return (v instanceof Date ? v : new Date(v)).toISOString();
}

/** Drops undefined fields so two reads of the same row serialize identically. */
export function compact<T extends Record<string, unknown>>(o: T): T {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}
