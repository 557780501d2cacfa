import { createRoute, type RouteConfig } from '@hono/zod-openapi';
import { ErrorBodySchema } from '@quire/shared';
import type { MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import type { AppEnv } from './env';
import { noBodyFields } from './middleware/jsonBody';

const error = (description: string) => ({ content: { 'application/json': { schema: ErrorBodySchema } }, description });

/** The error answers every authenticated operation can give. */
const ERRORS = {
  400: error('Bad input; the message names the field.'),
  401: error('No or bad token.'),
  403: error('Known caller without the right.'),
  404: error('Unknown id, or not visible to the caller.'),
  429: error('Rate limited; see Retry-After.'),
} as const;

/**
 * A route of the public API: bearer auth and the shared error answers added. An operation
 * that takes no body refuses one with fields, as strict body schemas refuse unknown fields.
 */
export function apiRoute<R extends RouteConfig>(r: R) {
  const middleware: MiddlewareHandler<AppEnv>[] = r.request?.body ? [] : [noBodyFields()];
  return createRoute({ ...r, middleware, security: [{ bearer: [] }], responses: { ...ERRORS, ...r.responses } });
}

export function body<T extends z.ZodType>(schema: T) {
  return { content: { 'application/json': { schema } }, required: true } as const;
}

export function json<T extends z.ZodType>(schema: T, description = 'OK') {
  return { content: { 'application/json': { schema } }, description } as const;
}

export const noContent = { 204: { description: 'No content' } } as const;
