/**
 * The adaptive-content expression language: a small, safe subset of JavaScript
 * expressions over the visitor's claims, e.g.
 * `visitor.claims.plan in ["pro", "team"] && !visitor.claims.unsigned.beta`.
 * Parsed here into a tree and evaluated by walking it: no `eval`, no `Function`, no
 * property access outside the `visitor` object, no calls.
 *
 * Grammar (lowest precedence first):
 *   or      := and ("||" and)*
 *   and     := not ("&&" not)*
 *   not     := "!" not | compare
 *   compare := primary (("==" | "!=" | "===" | "!==" | "<" | "<=" | ">" | ">=" | "in") primary)?
 *   primary := literal | array | path | "(" or ")"
 *   path    := "visitor" ("." name | "[" string "]")*
 */

export type Value = string | number | boolean | null | undefined | Value[] | { [k: string]: Value };

export type Expr =
  | { t: 'lit'; v: string | number | boolean | null }
  | { t: 'arr'; items: Expr[] }
  | { t: 'path'; keys: string[] }
  | { t: 'not'; e: Expr }
  | { t: 'and' | 'or'; l: Expr; r: Expr }
  | { t: 'cmp'; op: string; l: Expr; r: Expr };

/** A condition that does not parse; `message` says where. */
export class ExpressionError extends Error {}

const MAX_LENGTH = 1000;
const MAX_DEPTH = 32;

type Token = { k: 'op' | 'str' | 'num' | 'id'; v: string; at: number };

const OPS = ['===', '!==', '==', '!=', '<=', '>=', '&&', '||', '<', '>', '!', '(', ')', '[', ']', '.', ','];

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const ch = src[i] as string;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if (ch === '"' || ch === "'") {
      let s = '';
      let j = i + 1;
      for (; j < src.length && src[j] !== ch; j++) {
        if (src[j] === '\\') {
          j++;
          const esc = src[j];
          s += esc === 'n' ? '\n' : esc === 't' ? '\t' : (esc ?? '');
        } else s += src[j];
      }
      if (j >= src.length) throw new ExpressionError(`unterminated string at ${i + 1}`);
      out.push({ k: 'str', v: s, at: i });
      i = j + 1;
      continue;
    }
    const num = /^-?\d+(\.\d+)?/.exec(src.slice(i));
    // There is no arithmetic, so a dash before digits always starts a negative number.
    if (num) {
      out.push({ k: 'num', v: num[0], at: i });
      i += num[0].length;
      continue;
    }
    const id = /^[A-Za-z_$][A-Za-z0-9_$-]*/.exec(src.slice(i));
    if (id) {
      out.push({ k: 'id', v: id[0], at: i });
      i += id[0].length;
      continue;
    }
    const op = OPS.find((o) => src.startsWith(o, i));
    if (!op) throw new ExpressionError(`unexpected "${ch}" at ${i + 1}`);
    out.push({ k: 'op', v: op, at: i });
    i += op.length;
  }
  return out;
}

/** Parses a condition; throws ExpressionError with a readable reason. */
export function parseExpression(src: string): Expr {
  if (src.length > MAX_LENGTH) throw new ExpressionError(`longer than ${MAX_LENGTH} characters`);
  const toks = tokenize(src);
  let pos = 0;
  let depth = 0;
  const peek = () => toks[pos];
  const isOp = (v: string) => peek()?.k === 'op' && peek()?.v === v;
  const expect = (v: string) => {
    if (!isOp(v)) throw new ExpressionError(`expected "${v}" ${where()}`);
    pos++;
  };
  const where = () => (peek() ? `at ${(peek() as Token).at + 1}` : 'at the end');
  const nest = <T>(fn: () => T): T => {
    if (++depth > MAX_DEPTH) throw new ExpressionError('nested too deeply');
    try {
      return fn();
    } finally {
      depth--;
    }
  };

  const or = (): Expr =>
    nest(() => {
      let l = and();
      while (isOp('||')) {
        pos++;
        l = { t: 'or', l, r: and() };
      }
      return l;
    });
  const and = (): Expr => {
    let l = not();
    while (isOp('&&')) {
      pos++;
      l = { t: 'and', l, r: not() };
    }
    return l;
  };
  const not = (): Expr =>
    nest(() => {
      if (isOp('!')) {
        pos++;
        return { t: 'not', e: not() };
      }
      return compare();
    });
  const compare = (): Expr => {
    const l = primary();
    const t = peek();
    if (t && ((t.k === 'op' && ['==', '!=', '===', '!==', '<', '<=', '>', '>='].includes(t.v)) || (t.k === 'id' && t.v === 'in'))) {
      pos++;
      return { t: 'cmp', op: t.v, l, r: primary() };
    }
    return l;
  };
  const primary = (): Expr => {
    const t = peek();
    if (!t) throw new ExpressionError('unexpected end of the condition');
    if (t.k === 'str') {
      pos++;
      return { t: 'lit', v: t.v };
    }
    if (t.k === 'num') {
      pos++;
      return { t: 'lit', v: Number(t.v) };
    }
    if (t.k === 'op' && t.v === '(') {
      pos++;
      const e = or();
      expect(')');
      return e;
    }
    if (t.k === 'op' && t.v === '[') {
      pos++;
      const items: Expr[] = [];
      while (!isOp(']')) {
        items.push(nest(primary));
        if (!isOp(']')) expect(',');
      }
      pos++;
      return { t: 'arr', items };
    }
    if (t.k === 'id') {
      pos++;
      if (t.v === 'true' || t.v === 'false') return { t: 'lit', v: t.v === 'true' };
      if (t.v === 'null' || t.v === 'undefined') return { t: 'lit', v: null };
      if (t.v !== 'visitor') throw new ExpressionError(`unknown name "${t.v}" at ${t.at + 1}: conditions read "visitor.claims…"`);
      const keys: string[] = [];
      for (;;) {
        if (isOp('.')) {
          pos++;
          const name = peek();
          if (name?.k !== 'id') throw new ExpressionError(`expected a property name ${where()}`);
          keys.push(name.v);
          pos++;
        } else if (isOp('[')) {
          pos++;
          const key = peek();
          if (key?.k !== 'str' && key?.k !== 'num') throw new ExpressionError(`expected a quoted property name ${where()}`);
          keys.push(key.v);
          pos++;
          expect(']');
        } else break;
      }
      return { t: 'path', keys };
    }
    throw new ExpressionError(`unexpected "${t.v}" at ${t.at + 1}`);
  };

  if (toks.length === 0) throw new ExpressionError('the condition is empty');
  const e = or();
  if (pos < toks.length) throw new ExpressionError(`unexpected "${(toks[pos] as Token).v}" at ${(toks[pos] as Token).at + 1}`);
  return e;
}

/** What a condition sees: `visitor.claims` holds the verified claims (and `unsigned` ones). */
export interface EvalContext {
  visitor: { claims: Record<string, unknown> };
}

function own(o: unknown, k: string): unknown {
  // Only own data properties: `__proto__`, `constructor` and friends read as undefined.
  if (o === null || typeof o !== 'object' || !Object.hasOwn(o, k)) return undefined;
  return (o as Record<string, unknown>)[k];
}

function looseEquals(a: unknown, b: unknown): boolean {
  if ((a === null || a === undefined) && (b === null || b === undefined)) return true;
  if (typeof a === 'number' && typeof b === 'string') return a === Number(b);
  if (typeof a === 'string' && typeof b === 'number') return Number(a) === b;
  return a === b;
}

function truthy(v: unknown): boolean {
  return Array.isArray(v) ? true : !!v;
}

function evaluate(e: Expr, ctx: EvalContext): unknown {
  switch (e.t) {
    case 'lit':
      return e.v;
    case 'arr':
      return e.items.map((x) => evaluate(x, ctx));
    case 'path':
      return e.keys.reduce<unknown>((o, k) => own(o, k), ctx.visitor);
    case 'not':
      return !truthy(evaluate(e.e, ctx));
    case 'and':
      return truthy(evaluate(e.l, ctx)) && truthy(evaluate(e.r, ctx));
    case 'or':
      return truthy(evaluate(e.l, ctx)) || truthy(evaluate(e.r, ctx));
    case 'cmp': {
      const l = evaluate(e.l, ctx);
      const r = evaluate(e.r, ctx);
      switch (e.op) {
        case '==':
          return looseEquals(l, r);
        case '!=':
          return !looseEquals(l, r);
        case '===':
          return l === r || (l == null && r == null);
        case '!==':
          return !(l === r || (l == null && r == null));
        case 'in':
          return Array.isArray(r) ? r.some((x) => looseEquals(l, x)) : typeof r === 'string' && typeof l === 'string' && r.includes(l);
        default: {
          const comparable = (typeof l === 'number' && typeof r === 'number') || (typeof l === 'string' && typeof r === 'string');
          if (!comparable) return false;
          const a = l as number | string;
          const b = r as number | string;
          return e.op === '<' ? a < b : e.op === '<=' ? a <= b : e.op === '>' ? a > b : a >= b;
        }
      }
    }
  }
}

const parsed = new Map<string, Expr | ExpressionError>();

/**
 * True when the condition holds for the visitor. A missing condition holds; one that does
 * not parse (stored before a rule changed) never does, so nothing is shown by mistake.
 */
export function conditionHolds(condition: string | null | undefined, ctx: EvalContext): boolean {
  if (!condition) return true;
  let expr = parsed.get(condition);
  if (!expr) {
    try {
      expr = parseExpression(condition);
    } catch (err) {
      expr = err instanceof ExpressionError ? err : new ExpressionError(String(err));
    }
    if (parsed.size > 5000) parsed.clear();
    parsed.set(condition, expr);
  }
  if (expr instanceof ExpressionError) return false;
  return truthy(evaluate(expr, ctx));
}

/** The reason a condition is refused, or undefined when it parses. */
export function conditionError(condition: string): string | undefined {
  try {
    parseExpression(condition);
    return undefined;
  } catch (err) {
    if (err instanceof ExpressionError) return err.message;
    throw err;
  }
}
