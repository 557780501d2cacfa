import { cloneJson, type NodeJSON } from './json';

/** Values for `{{ space.vars.name }}` and `{{ page.vars.name }}`. */
export interface VariableScopes {
  space?: Record<string, string>;
  page?: Record<string, string>;
}

/** The only expressions evaluated; anything else in `{{ }}` is text. Matched, never run. */
const EXPRESSION = /\{\{\s*(space|page)\.vars\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** Text with each known variable expression replaced by its value; unknown names stay as written. */
export function evaluateText(text: string, scopes: VariableScopes): string {
  return text.replace(EXPRESSION, (expression, scope: 'space' | 'page', name: string) => {
    const values = scopes[scope];
    return values && Object.hasOwn(values, name) ? (values[name] as string) : expression;
  });
}

/** Attributes whose text readers see, and so may hold expressions too. */
const TEXT_ATTRS = ['title', 'caption', 'alt'];

/**
 * A copy of the body with variable expressions evaluated in text (code included, so
 * install commands can carry a version) and in captions, titles and alt texts: what
 * `evaluated=true` reads and published pages show.
 */
export function evaluateVariables(body: NodeJSON, scopes: VariableScopes): NodeJSON {
  const copy = cloneJson(body);
  const walk = (node: NodeJSON): void => {
    if (typeof node.text === 'string') node.text = evaluateText(node.text, scopes);
    if (node.attrs) {
      for (const key of TEXT_ATTRS) {
        const value = node.attrs[key];
        if (typeof value === 'string') node.attrs[key] = evaluateText(value, scopes);
      }
    }
    node.content?.forEach(walk);
  };
  walk(copy);
  return copy;
}
