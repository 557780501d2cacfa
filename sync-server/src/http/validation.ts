import type { Hook } from '@hono/zod-openapi';
import type { z } from 'zod';
import { ApiError } from './errorStatus';
import type { AppEnv } from './env';

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

/** Turns the first zod issue into a message that names the field. */
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

/** The validation hook every route shares: a 400 in the error shape, nothing else. */
export const validationHook: Hook<unknown, AppEnv, string, unknown> = (result, _c) => {
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new ApiError(400, issue ? describeIssue(result.target, issue, (result as { data?: unknown }).data) : `Invalid ${result.target}.`);
  }
};
