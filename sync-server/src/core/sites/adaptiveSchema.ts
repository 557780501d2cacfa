import Ajv, { type ValidateFunction } from 'ajv';

/**
 * The visitor schema of a site: a JSON Schema (draft-07) describing the claims visitors
 * carry, from which adaptive-content conditions are suggested and against which claims
 * are checked before conditions see them.
 */

const ajv = new Ajv({ allErrors: false, strict: false, validateSchema: true });

/** Why a schema is refused, or undefined when it is usable. */
export function adaptiveSchemaError(schema: Record<string, unknown>): string | undefined {
  if (JSON.stringify(schema).length > 64 * 1024) return 'is larger than 64 KiB';
  if (schema.$schema !== undefined && !String(schema.$schema).includes('draft-07')) return 'must be a JSON Schema draft-07 ($schema)';
  if (!ajv.validateSchema(schema)) return `is not a valid JSON Schema: ${ajv.errorsText(ajv.errors, { dataVar: 'jsonSchema' })}`;
  if (schema.type !== 'object') return 'must describe an object ("type": "object")';
  if (schema.properties !== undefined && (typeof schema.properties !== 'object' || schema.properties === null))
    return 'properties must be an object';
  try {
    ajv.compile(schema);
  } catch (err) {
    return `cannot be compiled: ${(err as Error).message}`;
  }
  return undefined;
}

const compiled = new Map<string, ValidateFunction>();

/** Registered claims of a JWT; they are not visitor attributes and the schema does not describe them. */
const REGISTERED = new Set(['iss', 'sub', 'aud', 'exp', 'nbf', 'iat', 'jti']);

/**
 * The claims conditions may read: the token's own claims minus the registered ones. With a
 * schema, claims that do not satisfy it are dropped as a whole, so a condition never acts
 * on attributes of a shape the site did not declare.
 */
export function visitorClaims(payload: Record<string, unknown>, schema: Record<string, unknown> | null): Record<string, unknown> {
  const claims = Object.fromEntries(Object.entries(payload).filter(([k]) => !REGISTERED.has(k)));
  if (!schema) return claims;
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (!validate) {
    try {
      validate = ajv.compile(schema);
    } catch {
      return {};
    }
    if (compiled.size > 200) compiled.clear();
    compiled.set(key, validate);
  }
  return validate(claims) ? claims : {};
}

export interface TemplateCondition {
  description: string;
  condition: string;
}

function pathExpr(keys: string[]): string {
  return `visitor.claims${keys.map((k) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(k) ? `.${k}` : `[${JSON.stringify(k)}]`)).join('')}`;
}

/** Ready-made conditions for each attribute the schema declares. */
export function templateConditions(schema: Record<string, unknown>): TemplateCondition[] {
  const out: TemplateCondition[] = [];
  const walk = (props: unknown, keys: string[], depth: number) => {
    if (!props || typeof props !== 'object' || depth > 4) return;
    // Stored schemas do not keep key order (jsonb), so suggestions follow the names.
    for (const [name, raw] of Object.entries(props as Record<string, Record<string, unknown>>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    )) {
      if (!raw || typeof raw !== 'object') continue;
      const path = [...keys, name];
      const label = typeof raw.description === 'string' && raw.description ? raw.description : path.join('.');
      const expr = pathExpr(path);
      if (Array.isArray(raw.enum)) {
        for (const v of raw.enum)
          if (['string', 'number', 'boolean'].includes(typeof v))
            out.push({ description: `${label}: ${v}`, condition: `${expr} == ${JSON.stringify(v)}` });
      } else if (raw.type === 'boolean') {
        out.push({ description: label, condition: expr });
      } else if (raw.type === 'object') {
        walk(raw.properties, path, depth + 1);
      } else if (raw.type === 'array') {
        out.push({ description: label, condition: `${JSON.stringify('value')} in ${expr}` });
      } else {
        out.push({ description: label, condition: `${expr} != null` });
      }
    }
  };
  walk(schema.properties, [], 0);
  return out;
}
