import type * as Y from 'yjs';
import { invalid } from './errors';
import { readJson, variablesMap } from './layout';

/** Variable names usable in `{{ space.vars.name }}`. */
export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The space's variables (each one its own Yjs key, so editing two variables at once never conflicts). */
export function getVariables(doc: Y.Doc): Record<string, string> {
  const out: Record<string, string> = {};
  const names = [...variablesMap(doc).keys()].sort();
  for (const name of names) {
    const value = readJson(variablesMap(doc).get(name));
    if (typeof value === 'string') out[name] = value;
  }
  return out;
}

export function getVariable(doc: Y.Doc, name: string): string | null {
  const value = readJson(variablesMap(doc).get(name));
  return typeof value === 'string' ? value : null;
}

export function setVariable(doc: Y.Doc, name: string, value: string): void {
  if (!VARIABLE_NAME.test(name)) throw invalid(`variable name ${JSON.stringify(name)} must be letters, digits and _`);
  variablesMap(doc).set(name, value);
}

export function deleteVariable(doc: Y.Doc, name: string): void {
  variablesMap(doc).delete(name);
}

/** Makes the variables exactly `values`: others are deleted, unchanged ones are not rewritten. */
export function replaceVariables(doc: Y.Doc, values: Record<string, string>): void {
  for (const name of Object.keys(values)) {
    if (!VARIABLE_NAME.test(name)) throw invalid(`variable name ${JSON.stringify(name)} must be letters, digits and _`);
  }
  doc.transact(() => {
    const map = variablesMap(doc);
    for (const name of [...map.keys()]) if (!(name in values)) map.delete(name);
    for (const [name, value] of Object.entries(values)) if (map.get(name) !== value) map.set(name, value);
  });
}
