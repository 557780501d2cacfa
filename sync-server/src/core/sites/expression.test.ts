import { describe, expect, it } from 'vitest';
import { conditionError, conditionHolds } from './expression';

const ctx = (claims: Record<string, unknown>) => ({ visitor: { claims } });

describe('adaptive-content expressions', () => {
  it('evaluates comparisons, membership, negation and precedence against the claims', () => {
    const c = ctx({ plan: 'pro', beta: false, seats: 12, groups: ['eng', 'docs'], unsigned: { region: 'eu' } });
    expect(conditionHolds('visitor.claims.plan == "pro"', c)).toBe(true);
    expect(conditionHolds("visitor.claims.plan === 'team'", c)).toBe(false);
    expect(conditionHolds('visitor.claims.plan in ["pro", "team"] && !visitor.claims.beta', c)).toBe(true);
    expect(conditionHolds('visitor.claims.beta || visitor.claims.seats >= 10', c)).toBe(true);
    expect(conditionHolds('!(visitor.claims.seats > 10 && visitor.claims.plan != "pro")', c)).toBe(true);
    expect(conditionHolds('"docs" in visitor.claims.groups', c)).toBe(true);
    expect(conditionHolds('visitor.claims.unsigned.region == "eu"', c)).toBe(true);
    expect(conditionHolds('visitor.claims["plan"] == "pro"', c)).toBe(true);
    expect(conditionHolds('visitor.claims.missing.deep == null', c)).toBe(true);
    expect(conditionHolds('visitor.claims.seats < -1', c)).toBe(false);
    expect(conditionHolds(null, c)).toBe(true);
  });

  it('reads only own data of the claims: no prototype, no calls, no other names', () => {
    const c = ctx({});
    expect(conditionHolds('visitor.claims.constructor', c)).toBe(false);
    expect(conditionHolds('visitor.claims.__proto__', c)).toBe(false);
    expect(conditionError('visitor.claims.toString()')).toBe('unexpected "(" at 24');
    expect(conditionError('globalThis.process')).toBe('unknown name "globalThis" at 1: conditions read "visitor.claims…"');
    expect(conditionError('visitor.claims.a = 1')).toBe('unexpected "=" at 18');
    expect(conditionError('"unterminated')).toBe('unterminated string at 1');
    expect(conditionError('')).toBe('the condition is empty');
    expect(conditionError(`${'!'.repeat(100)}visitor.claims.a`)).toBe('nested too deeply');
    // A stored condition that no longer parses hides its content rather than showing it.
    expect(conditionHolds('visitor.claims.a ==', c)).toBe(false);
  });
});
