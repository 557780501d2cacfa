import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Applied, Outbox, type OutboxPerformer, RefusedError, RetryLaterError } from './Outbox';
import { RemoteError, UnreachableError } from './ServerClient';
import { type LocalDb, type Queryable, openLocalDb } from './store/database';
import { type OutboxRow, enqueue } from './store/outbox';

/**
 * The replay loop on its own, against a real local database and a scripted server: what
 * each kind of answer does to the entry, to the rest of the queue and to later retries.
 */

let db: LocalDb;
beforeAll(async () => {
  db = await openLocalDb(undefined);
});
afterAll(async () => db?.close());
beforeEach(async () => {
  await db.query('DELETE FROM outbox');
  await db.query('DROP TABLE IF EXISTS applied');
  await db.query('CREATE TABLE applied (label text NOT NULL)');
});
afterEach(() => {
  vi.useRealTimers();
});

/** What the scripted server does with an entry, by its label; answers in turn, the last one repeating. */
type Answer = 'ok' | Error | ((entry: OutboxRow) => Applied);

class ScriptedServer implements OutboxPerformer {
  sent: string[] = [];
  refusals: { label: string; message: string }[] = [];
  afterRuns: string[] = [];
  refuseUndo?: Error;
  constructor(private script: Record<string, Answer[]> = {}) {}

  answer(label: string, ...answers: Answer[]) {
    this.script[label] = answers;
  }

  async perform(entry: OutboxRow): Promise<Applied> {
    this.sent.push(entry.label);
    const answers = this.script[entry.label] ?? ['ok'];
    const next = answers.length > 1 ? answers.shift()! : answers[0]!;
    if (next instanceof Error) throw next;
    if (typeof next === 'function') return next(entry);
    return {
      apply: async (tx: Queryable) => {
        await tx.query('INSERT INTO applied (label) VALUES ($1)', [entry.label]);
      },
      after: () => {
        this.afterRuns.push(entry.label);
      },
    };
  }

  async refused(entry: OutboxRow, message: string, tx: Queryable): Promise<void> {
    if (this.refuseUndo) throw this.refuseUndo;
    await tx.query('INSERT INTO applied (label) VALUES ($1)', [`undone ${entry.label}`]);
    this.refusals.push({ label: entry.label, message });
  }
}

async function queue(...labels: string[]): Promise<OutboxRow[]> {
  const rows: OutboxRow[] = [];
  for (const label of labels) rows.push(await enqueue(db, 'space.update', { label }, label));
  return rows;
}

async function states(): Promise<[string, string, string | null, number][]> {
  const rows = await db.query<{ label: string; state: string; error: string | null; attempts: number }>(
    'SELECT label, state, error, attempts FROM outbox ORDER BY seq',
  );
  return rows.map((r) => [r.label, r.state, r.error, Number(r.attempts)]);
}

async function applied(): Promise<string[]> {
  return (await db.query<{ label: string }>('SELECT label FROM applied ORDER BY label')).map((r) => r.label);
}

function recordEvents(outbox: Outbox) {
  const events: string[] = [];
  outbox.on('changed', () => events.push('changed'));
  outbox.on('reached', () => events.push('reached'));
  outbox.on('refused', (e, m) => events.push(`refused ${e.label}: ${m}`));
  outbox.on('unauthorized', (m) => events.push(`unauthorized: ${m}`));
  outbox.on('unreachable', (m) => events.push(`unreachable: ${m}`));
  outbox.on('problem', (m) => events.push(`problem: ${m}`));
  return events;
}

async function run(server: ScriptedServer): Promise<{ outbox: Outbox; events: string[] }> {
  const outbox = new Outbox(db, server);
  const events = recordEvents(outbox);
  outbox.start();
  await outbox.idle();
  return { outbox, events };
}

describe('Outbox replay', () => {
  it('sends entries in order, records each with its result and runs its follow-up after the commit', async () => {
    await queue('a', 'b', 'c');
    const server = new ScriptedServer();
    const { outbox, events } = await run(server);
    expect(server.sent).toEqual(['a', 'b', 'c']);
    expect(await states()).toEqual([
      ['a', 'done', null, 0],
      ['b', 'done', null, 0],
      ['c', 'done', null, 0],
    ]);
    expect(await applied()).toEqual(['a', 'b', 'c']);
    expect(server.afterRuns).toEqual(['a', 'b', 'c']);
    expect(events).toEqual(['reached', 'changed', 'reached', 'changed', 'reached', 'changed']);
    outbox.stop();
  });

  it('does nothing before start and after stop, and says whether it is active', async () => {
    await queue('a');
    const server = new ScriptedServer();
    const outbox = new Outbox(db, server);
    expect(outbox.active).toBe(false);
    await outbox.kick();
    expect(server.sent).toEqual([]);
    outbox.start();
    expect(outbox.active).toBe(true);
    await outbox.idle();
    expect(server.sent).toEqual(['a']);
    outbox.stop();
    expect(outbox.active).toBe(false);
    await queue('b');
    await outbox.kick();
    expect(server.sent).toEqual(['a']);
    expect((await states())[1]).toEqual(['b', 'pending', null, 0]);
  });

  it('goes on past a refused entry, keeping it failed with the status in its error, and undoes what waited on it', async () => {
    await queue('a', 'refused', 'c');
    const server = new ScriptedServer({ refused: [new RemoteError(422, 'Title is too long')] });
    const { outbox, events } = await run(server);
    expect(server.sent).toEqual(['a', 'refused', 'c']);
    expect(await states()).toEqual([
      ['a', 'done', null, 0],
      ['refused', 'failed', 'Title is too long (422)', 1],
      ['c', 'done', null, 0],
    ]);
    expect(server.refusals).toEqual([{ label: 'refused', message: 'Title is too long (422)' }]);
    expect(await applied()).toEqual(['a', 'c', 'undone refused']);
    expect(events).toEqual(['reached', 'changed', 'refused refused: Title is too long (422)', 'changed', 'reached', 'changed']);
    outbox.stop();
  });

  it('keeps a refusal without a status by its own message', async () => {
    await queue('a');
    const server = new ScriptedServer({ a: [new RefusedError('No such space here')] });
    const { outbox } = await run(server);
    expect(await states()).toEqual([['a', 'failed', 'No such space here', 1]]);
    outbox.stop();
  });

  it('marks the entry failed even when undoing what waited on it fails too', async () => {
    await queue('a', 'b');
    const server = new ScriptedServer({ a: [new RemoteError(400, 'Bad')] });
    server.refuseUndo = new Error('undo broke');
    const { outbox, events } = await run(server);
    expect(await states()).toEqual([
      ['a', 'failed', 'Bad (400)', 1],
      ['b', 'done', null, 0],
    ]);
    expect(events.slice(0, 2)).toEqual(['refused a: Bad (400)', 'changed']);
    outbox.stop();
  });

  it('keeps an entry the server did but this machine could not record, failed, with nothing half applied, and goes on', async () => {
    await queue('a', 'b');
    const server = new ScriptedServer({
      a: [
        () => ({
          apply: async (tx) => {
            await tx.query("INSERT INTO applied (label) VALUES ('half of a')");
            throw new Error('disk full');
          },
          after: () => {
            server.afterRuns.push('a');
          },
        }),
      ],
    });
    const { outbox, events } = await run(server);
    expect(await states()).toEqual([
      ['a', 'failed', 'the server did it, but this machine could not record its answer: disk full', 1],
      ['b', 'done', null, 0],
    ]);
    expect(await applied()).toEqual(['b', 'undone a']);
    expect(server.afterRuns).toEqual(['b']);
    expect(events.slice(0, 3)).toEqual([
      'reached',
      'refused a: the server did it, but this machine could not record its answer: disk full',
      'changed',
    ]);
    outbox.stop();
  });

  it('counts a follow-up that fails as done: the entry is recorded and the queue goes on', async () => {
    await queue('a', 'b');
    const server = new ScriptedServer({
      a: [
        () => ({
          apply: async () => {},
          after: () => {
            throw new Error('reconnect failed');
          },
        }),
      ],
    });
    const { outbox, events } = await run(server);
    expect(await states()).toEqual([
      ['a', 'done', null, 0],
      ['b', 'done', null, 0],
    ]);
    expect(events).toEqual(['reached', 'changed', 'reached', 'changed']);
    outbox.stop();
  });

  it('stops at an unauthorized answer, keeping the entry and the rest pending until started again', async () => {
    await queue('a', 'b');
    const server = new ScriptedServer({ a: [new RemoteError(401, 'Token expired'), 'ok'] });
    const { outbox, events } = await run(server);
    expect(server.sent).toEqual(['a']);
    expect(await states()).toEqual([
      ['a', 'pending', 'Token expired', 1],
      ['b', 'pending', null, 0],
    ]);
    expect(events).toEqual(['unauthorized: Token expired']);
    expect(outbox.active).toBe(false);
    outbox.start();
    await outbox.idle();
    expect(server.sent).toEqual(['a', 'a', 'b']);
    expect((await states()).map((s) => s[1])).toEqual(['done', 'done']);
    outbox.stop();
  });
});

describe('Outbox waiting and retrying', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });

  /** Lets the retry timer fire after `ms` and waits for the replay it starts. */
  async function advance(outbox: Outbox, ms: number) {
    await vi.advanceTimersByTimeAsync(ms);
    await outbox.idle();
  }

  // Each error is made inside its test, where the code under test makes it.
  it.each<[string, () => Error]>([
    ['an unreachable server', () => new UnreachableError(new Error('connect ECONNREFUSED'))],
    ['a server error', () => new RemoteError(503, 'Unavailable')],
    ['a rate limit', () => new RemoteError(429, 'Slow down')],
    ['a server not caught up yet', () => new RetryLaterError('Not yet')],
  ])('holds the queue on %s and retries the same entry by itself, waiting longer each time up to 15 s', async (_name, makeError) => {
    const error = makeError();
    await queue('a', 'b');
    const server = new ScriptedServer({ a: [error, error, error, error, error, error, error, error, 'ok'] });
    const { outbox, events } = await run(server);
    expect(server.sent).toEqual(['a']);
    expect(await states()).toEqual([
      ['a', 'pending', error.message, 1],
      ['b', 'pending', null, 0],
    ]);
    // 500 ms, then doubled each time, never more than 15 s.
    for (const wait of [500, 1000, 2000, 4000, 8000, 15_000, 15_000]) {
      const before = server.sent.length;
      await advance(outbox, wait - 1);
      expect(server.sent.length).toBe(before);
      await advance(outbox, 1);
      expect(server.sent.length).toBe(before + 1);
    }
    await advance(outbox, 15_000);
    expect(server.sent).toEqual([...Array(9).fill('a'), 'b']);
    expect(await states()).toEqual([
      ['a', 'done', null, 8],
      ['b', 'done', null, 0],
    ]);
    if (error instanceof UnreachableError) expect(events.filter((e) => e.startsWith('unreachable')).length).toBe(8);
    else expect(events.some((e) => e.startsWith('unreachable'))).toBe(false);
    outbox.stop();
  });

  it('waits 500 ms again once the server answered', async () => {
    await queue('a');
    const down = new UnreachableError(new Error('down'));
    const server = new ScriptedServer({ a: [down, down, 'ok'] });
    const { outbox } = await run(server);
    await advance(outbox, 500);
    await advance(outbox, 1000);
    expect((await states())[0]?.[1]).toBe('done');
    await queue('b');
    server.answer('b', down, 'ok');
    await outbox.kick();
    await advance(outbox, 499);
    expect(server.sent.slice(-1)).toEqual(['b']);
    expect(server.sent.length).toBe(4);
    await advance(outbox, 1);
    expect(server.sent).toEqual(['a', 'a', 'a', 'b', 'b']);
    outbox.stop();
  });

  it('gives up a conflict that is not about a request still being handled, and retries one that is', async () => {
    await queue('busy', 'conflict');
    const busy = new RemoteError(409, 'The request with this Idempotency-Key is still being handled');
    const server = new ScriptedServer({ busy: [busy, 'ok'], conflict: [new RemoteError(409, 'Slug taken')] });
    const { outbox } = await run(server);
    expect(await states()).toEqual([
      ['busy', 'pending', busy.message, 1],
      ['conflict', 'pending', null, 0],
    ]);
    await advance(outbox, 500);
    expect(await states()).toEqual([
      ['busy', 'done', null, 1],
      ['conflict', 'failed', 'Slug taken (409)', 1],
    ]);
    outbox.stop();
  });

  it('does not retry once stopped', async () => {
    await queue('a');
    const server = new ScriptedServer({ a: [new UnreachableError(new Error('down')), 'ok'] });
    const { outbox } = await run(server);
    outbox.stop();
    await advance(outbox, 60_000);
    expect(server.sent).toEqual(['a']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('survives the local database failing, tells it, and tries again later', async () => {
    await queue('a');
    const server = new ScriptedServer();
    const broken = { ...db, query: () => Promise.reject(new Error('database closed')) } as LocalDb;
    let failing = true;
    const flaky: LocalDb = {
      query: (sql, params) => (failing ? broken.query(sql, params) : db.query(sql, params)),
      transaction: (fn) => db.transaction(fn),
      close: async () => {},
    };
    const outbox = new Outbox(flaky, server);
    const events = recordEvents(outbox);
    outbox.start();
    await outbox.idle();
    expect(events).toEqual(['problem: The outbox could not go on: database closed']);
    failing = false;
    await advance(outbox, 500);
    expect(server.sent).toEqual(['a']);
    expect((await states())[0]?.[1]).toBe('done');
    outbox.stop();
  });

  it('does not schedule a retry after a database failure once stopped', async () => {
    await queue('a');
    let outbox: Outbox | undefined;
    const flaky: LocalDb = {
      query: () => {
        outbox?.stop();
        return Promise.reject(new Error('database closed'));
      },
      transaction: (fn) => db.transaction(fn),
      close: async () => {},
    };
    outbox = new Outbox(flaky, new ScriptedServer());
    outbox.start();
    await outbox.idle();
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('Outbox coalescing', () => {
  it('runs one replay at a time, and a kick during it drains what was queued meanwhile', async () => {
    await queue('a');
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let concurrent = 0;
    let most = 0;
    const server = new ScriptedServer();
    const perform = server.perform.bind(server);
    const started: string[] = [];
    server.perform = async (entry) => {
      started.push(entry.label);
      concurrent++;
      most = Math.max(most, concurrent);
      if (entry.label === 'a') await gate;
      try {
        return await perform(entry);
      } finally {
        concurrent--;
      }
    };
    const outbox = new Outbox(db, server);
    outbox.start();
    await vi.waitFor(() => expect(started).toEqual(['a']));
    const second = outbox.kick();
    await queue('b');
    const third = outbox.kick();
    release();
    await Promise.all([second, third]);
    expect(server.sent).toEqual(['a', 'b']);
    expect(most).toBe(1);
    expect((await states()).map((s) => s[1])).toEqual(['done', 'done']);
    outbox.stop();
  });

  it('a kick as the replay finds the queue empty makes it look again', async () => {
    await queue('a');
    const server = new ScriptedServer();
    let outbox!: Outbox;
    let empties = 0;
    const watching: LocalDb = {
      query: async (sql, params) => {
        const rows = await db.query(sql, params);
        // The replay just found nothing left; an entry queued now, with its kick, must still go.
        if (/o\.state = 'pending'/.test(sql) && rows.length === 0 && empties++ === 0) {
          await queue('b');
          void outbox.kick();
        }
        return rows as never;
      },
      transaction: (fn) => db.transaction(fn),
      close: async () => {},
    };
    outbox = new Outbox(watching, server);
    outbox.start();
    await outbox.idle();
    expect(server.sent).toEqual(['a', 'b']);
    outbox.stop();
  });
});
