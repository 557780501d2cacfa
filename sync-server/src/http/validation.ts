import type { Hook } from '@hono/zod-openapi';
import { ApiError } from './errorStatus';
import { describeIssue } from '../web/issues';
import type { AppEnv } from './env';

/** The validation hook every route shares: a 400 in the error shape, nothing else. */
export const validationHook: Hook<unknown, AppEnv, string, unknown> = (result, _c) => {
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new ApiError(400, issue ? describeIssue(result.target, issue, (result as { data?: unknown }).data) : `Invalid ${result.target}.`);
  }
};
