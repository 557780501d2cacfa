import { describe, expect, it } from 'vitest';
import { SectionGate } from './SectionGate';

const none = async () => {};

describe('SectionGate', () => {
  it('runs a section started inside another as part of it, in every section after the first', async () => {
    const gate = new SectionGate();
    const order: string[] = [];
    for (const name of ['first', 'second', 'third']) {
      // A nested section that waited for its parent to end would never end.
      const out = await gate.run(
        none,
        async () => {
          await new Promise((r) => setImmediate(r));
          return gate.run(
            none,
            async () => {
              order.push(`${name} nested, inside: ${gate.inSection}`);
              return name;
            },
            none,
          );
        },
        none,
      );
      expect(out).toBe(name);
      expect(gate.inSection).toBe(false);
    }
    expect(order).toEqual(['first nested, inside: true', 'second nested, inside: true', 'third nested, inside: true']);
  });

  it('does not count work a section left running as inside a later section', async () => {
    const gate = new SectionGate();
    let leftover!: Promise<boolean>;
    await gate.run(
      none,
      async () => {
        leftover = new Promise((resolve) => setTimeout(resolve, 30)).then(() => gate.inSection);
      },
      none,
    );
    let release!: () => void;
    const second = gate.run(none, () => new Promise<void>((r) => (release = r)), none);
    expect(await leftover).toBe(false);
    release();
    await second;
  });

  it('holds a second section until the first has ended, rooms waiting in between going first', async () => {
    const gate = new SectionGate();
    const events: string[] = [];
    let releaseFirst!: () => void;
    const first = gate.run(none, () => new Promise<void>((r) => (releaseFirst = r)).then(() => void events.push('first ends')), none);
    const second = gate.run(none, async () => void events.push('second starts'), none);
    await new Promise((r) => setTimeout(r, 10));
    expect(gate.closed).toBe(true);
    const room = gate.whenOpen().then(() => events.push('room'));
    releaseFirst();
    await Promise.all([first, second, room]);
    expect(events).toEqual(['first ends', 'room', 'second starts']);
  });
});
