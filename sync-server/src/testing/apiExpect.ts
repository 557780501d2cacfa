import { expect } from 'vitest';
import type { Answer } from './harness';

/**
 * Asserts an error answer: its status, the one error body shape, and the message when
 * given (a string for an exact match, a RegExp otherwise).
 */
export function expectError(res: Pick<Answer, 'status' | 'body'>, status: number, message?: string | RegExp) {
  expect({ status: res.status, body: res.body }).toMatchObject({ status, body: { error: { code: status } } });
  expect(Object.keys(res.body)).toEqual(['error']);
  expect(Object.keys(res.body.error).sort()).toEqual(['code', 'message']);
  expect(typeof res.body.error.message).toBe('string');
  if (typeof message === 'string') expect(res.body.error.message).toBe(message);
  else if (message) expect(res.body.error.message).toMatch(message);
}

/** An id of the right shape that names nothing. */
export const UNKNOWN_ID = 'AAAAAAAAAAAAAAAAAAAAAA';

export const NO_ORG = 'No matching organization found.';
export const NO_SPACE = 'No matching space found.';
export const NO_COLLECTION = 'No matching collection found.';
export const NO_MEMBER = 'No matching member found.';
export const NO_TEAM = 'No matching team found.';
