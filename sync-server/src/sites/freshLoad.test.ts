import { describe, expect, it } from 'vitest';
import { FreshLoader } from './freshLoad';

describe('FreshLoader', () => {
  it('never answers a caller with a read that started before it arrived, and shares the next one', async () => {
    const loader = new FreshLoader<number>();
    let reads = 0;
    const releases: (() => void)[] = [];
    const read = () => {
      const n = ++reads;
      return new Promise<number>((resolve) => releases.push(() => resolve(n)));
    };
    const first = loader.load('k', read);
    const second = loader.load('k', read);
    const third = loader.load('k', read);
    expect(reads).toBe(1);
    releases.shift()?.();
    expect(await first).toBe(1);
    await Promise.resolve();
    expect(reads).toBe(2);
    releases.shift()?.();
    expect(await second).toBe(2);
    expect(await third).toBe(2);
    expect(await (releases.length ? Promise.reject(new Error('extra read')) : loader.load('k', async () => 42))).toBe(42);
  });
});
