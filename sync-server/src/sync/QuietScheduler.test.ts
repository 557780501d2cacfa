import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../logger';
import { QuietScheduler } from './QuietScheduler';

describe('QuietScheduler', () => {
  afterEach(() => vi.useRealTimers());

  it('waits for a quiet period after the last edit, once per quiet period', async () => {
    vi.useFakeTimers();
    const cuts: string[] = [];
    const quiet = new QuietScheduler(100, async (docId) => void cuts.push(docId), createLogger('silent'));
    quiet.touch('a');
    await vi.advanceTimersByTimeAsync(80);
    quiet.touch('a');
    quiet.touch('b');
    await vi.advanceTimersByTimeAsync(80);
    expect(cuts).toEqual([]);
    await vi.advanceTimersByTimeAsync(30);
    expect(cuts.sort()).toEqual(['a', 'b']);
    expect(quiet.pending).toBe(0);
    // An edit after the cut starts a new quiet period.
    quiet.touch('a');
    await vi.advanceTimersByTimeAsync(99);
    expect(cuts).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(cuts.sort()).toEqual(['a', 'a', 'b']);
  });
});
