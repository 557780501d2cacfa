import type { OpenAPIErrorCode } from '@quire/shared/schemas/openapi';
import { parseYamlIsolated } from './parseYaml';

/** The parts of an OpenAPI 3.x or Swagger 2 document that rendering reads; the rest is kept as is. */
export interface OpenAPIDocument {
  openapi?: string;
  swagger?: string;
  info: { title: string; version: string; description?: string; [k: string]: unknown };
  paths: Record<string, Record<string, unknown>>;
  [k: string]: unknown;
}

export interface SpecProblem {
  code: string;
  message: string;
}

export type ParseResult =
  | { ok: true; document: OpenAPIDocument }
  | { ok: false; code: Extract<OpenAPIErrorCode, 'PARSE_ERROR' | 'INVALID_SPEC'>; errors: SpecProblem[] };

const MAX_PROBLEMS = 50;

/**
 * Parses a spec given as JSON or YAML (JSON is YAML, but parsing it as JSON first gives
 * better messages for the common case) and checks the structure pages rely on.
 */
export async function parseSpecText(text: string): Promise<ParseResult> {
  let value: unknown;
  const trimmed = text.trimStart();
  const refused = (message: string): ParseResult => ({
    ok: false,
    code: 'PARSE_ERROR',
    errors: [{ code: 'PARSE_ERROR', message: `Not valid JSON or YAML: ${message.split('\n')[0]}` }],
  });
  if (trimmed.startsWith('{')) {
    try {
      value = JSON.parse(text);
    } catch (err) {
      return refused((err as Error).message);
    }
  } else {
    // YAML can expand far beyond its size: parsed in a worker with a budget (see parseYaml.ts).
    const parsed = await parseYamlIsolated(text);
    if (!parsed.ok) return refused(parsed.message);
    value = parsed.value;
  }
  const errors = validateStructure(value);
  if (errors.length) return { ok: false, code: 'INVALID_SPEC', errors: errors.slice(0, MAX_PROBLEMS) };
  return { ok: true, document: value as OpenAPIDocument };
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof METHODS)[number];
export const HTTP_METHODS: readonly HttpMethod[] = METHODS;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Structure checks: version field, info, paths and the operations under them. Not a full schema validation. */
export function validateStructure(value: unknown): SpecProblem[] {
  const errors: SpecProblem[] = [];
  const problem = (code: string, message: string) => errors.push({ code, message });
  if (!isObject(value)) {
    problem('NOT_AN_OBJECT', 'The document is not an object: an OpenAPI or Swagger document starts with openapi/swagger, info and paths.');
    return errors;
  }
  const { openapi, swagger } = value;
  if (openapi !== undefined) {
    if (typeof openapi !== 'string' || !/^3\.\d+(\.\d+)?(-.+)?$/.test(openapi)) {
      problem('UNSUPPORTED_VERSION', `"openapi" is ${JSON.stringify(openapi)}: only OpenAPI 3.x and Swagger 2.0 are supported.`);
    }
  } else if (swagger !== undefined) {
    if (String(swagger) !== '2.0')
      problem('UNSUPPORTED_VERSION', `"swagger" is ${JSON.stringify(swagger)}: only Swagger 2.0 is supported.`);
  } else {
    problem('MISSING_VERSION', 'The document has neither an "openapi" (3.x) nor a "swagger" (2.0) field.');
  }
  const info = value.info;
  if (!isObject(info)) problem('MISSING_INFO', 'The document has no "info" object.');
  else {
    if (typeof info.title !== 'string' || info.title.trim() === '')
      problem('MISSING_INFO_TITLE', '"info.title" must be a non-empty string.');
    if (typeof info.version !== 'string' && typeof info.version !== 'number')
      problem('MISSING_INFO_VERSION', '"info.version" must be a string.');
  }
  const paths = value.paths;
  const is31 = typeof openapi === 'string' && openapi.startsWith('3.1');
  if (paths === undefined) {
    // OpenAPI 3.1 allows a document with webhooks or components only.
    if (!is31) problem('MISSING_PATHS', 'The document has no "paths" object.');
  } else if (!isObject(paths)) problem('INVALID_PATHS', '"paths" must be an object.');
  else {
    for (const [path, item] of Object.entries(paths)) {
      if (path.startsWith('x-')) continue;
      if (!path.startsWith('/')) problem('INVALID_PATH', `Path "${path}" must start with "/".`);
      if (!isObject(item)) {
        problem('INVALID_PATH_ITEM', `"paths.${path}" must be an object.`);
        continue;
      }
      for (const method of METHODS) {
        const op = item[method];
        if (op === undefined) continue;
        if (!isObject(op)) problem('INVALID_OPERATION', `"paths.${path}.${method}" must be an object.`);
        else if (op.responses !== undefined && !isObject(op.responses)) {
          problem('INVALID_RESPONSES', `"paths.${path}.${method}.responses" must be an object.`);
        }
      }
    }
  }
  return errors;
}
