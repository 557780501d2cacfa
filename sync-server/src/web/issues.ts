import type { z } from 'zod';

const WHERE: Record<string, string> = { json: 'body', query: 'query parameter', param: 'path parameter', header: 'header' };

/** The value at `path` in what the caller sent (zod leaves it out of issues unless asked). */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let at = input;
  for (const key of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at;
}

/** Turns the first zod issue into a message that names the field: the API's 400s and the MCP tools' argument errors. */
export function describeIssue(target: string, issue: z.core.$ZodIssue, input?: unknown): string {
  const where = WHERE[target] ?? target;
  const path = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((k) => (path ? `${path}.${k}` : k));
    return `Unknown ${where} field${keys.length > 1 ? 's' : ''}: ${keys.map((k) => `"${k}"`).join(', ')}.`;
  }
  if (!path) return `Invalid ${where}: ${issue.message}.`;
  if (issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined) return `Missing ${where} field "${path}".`;
  return `Invalid ${where} field "${path}": ${issue.message}.`;
}
