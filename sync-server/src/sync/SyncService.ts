import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Role } from '@quire/shared';
import { SYNC_PATH, SyncClose, SyncCloseReason, type SyncRoom, parseRoom, roomDocId } from '@quire/shared/sync';
import { WebSocket, WebSocketServer } from 'ws';
import type { Config } from '../config';
import type { Logger } from '../logger';
import type { Db } from '../store/db';
import { journalOf } from '../store/journal/journaledDb';
import { docsAheadOfRevisions, lastSeqs } from '../store/syncRooms';
import { type Credentials, SyncRefused, authenticate, policyOf, roleInRoom } from './access';
import { AwarenessRelay } from './AwarenessRelay';
import { Compactor } from './Compactor';
import { Connection } from './Connection';
import { LiveContributors, LiveEditors } from './contributors';
import { JournalStorage } from './JournalStorage';
import { LogWriter } from './LogWriter';
import { LogWriterStorage } from './LogWriterStorage';
import { QuietScheduler } from './QuietScheduler';
import { Rechecks } from './Rechecks';
import { UpgradeLimiter } from './UpgradeLimiter';
import { Room, type RoomHost } from './Room';
import type { RoomStorage } from './RoomStorage';
import { busFor } from './buses';
import type { LogRows, SyncBus } from './SyncBus';
import { SyncTraffic } from './traffic';

/** How often loaded rooms compare their position with the log, in case a notification was lost. */
const SWEEP_MS = 5000;
/** How often edits left behind by a dead instance are looked for, and how long past their quiet period they must be. */
const LEFT_BEHIND_MS = 20_000;
const LEFT_BEHIND_MARGIN_MS = 5000;
/** Older ones were looked at by earlier passes (or are cut when an instance starts). */
const LEFT_BEHIND_WINDOW_MS = 15 * 60_000;
/** How often idle sockets are pinged; one that did not answer the previous ping is dropped. */
const HEARTBEAT_MS = 30_000;
/** How often the write policy of every loaded room (locks, closed change requests) is read again, all at once. */
const POLICY_REFRESH_MS = 1000;

export interface SyncServiceOptions {
  db: Db;
  config: Config;
  log: Logger;
  /**
   * Called once a branch document's live edits have gone quiet, and on start for logged
   * updates that no revision holds. Cuts a revision by default.
   */
  onQuiet?: (docId: string) => Promise<void>;
  /**
   * Called when a commit of the log may not have reached disk (a failed fsync). Stops the
   * process by default: retrying is unsafe, and a restart recovers from what is on disk.
   */
  onDurabilityLost?: (err: Error) => void;
  /** What carries the fan-out between instances (`SYNC_BUS`); by default the one the settings name. */
  bus?: SyncBus;
}

/**
 * The `/v1/sync` WebSocket endpoint: authenticates upgrades, keeps one `Room` per loaded
 * branch document, relays what other writers append to the log (other instances, REST
 * merges) through the bus (LISTEN/NOTIFY or Redis Streams), cuts revisions once edits go quiet, compacts logs and
 * unloads idle rooms.
 */
export class SyncService {
  /** Written as the origin of every log row this process appends, so its own notifications are skipped. */
  readonly instanceId = `${process.pid}-${randomBytes(6).toString('base64url')}`;
  private wss: WebSocketServer;
  private rooms = new Map<string, Room>();
  private connections = new Set<Connection>();
  /** Updates stored and relayed, for the metrics. */
  readonly traffic = new SyncTraffic();
  private quiet: QuietScheduler;
  /** Who edited each document live since its last revision: that revision is theirs. */
  private readonly liveEditors = new LiveEditors();
  private host: RoomHost;
  /** A new room's storage: on the journal when the database has one, else through the log writer. */
  private newStorage: () => RoomStorage;
  private unlisten: (() => Promise<void>)[] = [];
  private timers: NodeJS.Timeout[] = [];
  private compactor: Compactor;
  private awarenessRelay: AwarenessRelay;
  private rechecks: Rechecks;
  private alive = new WeakSet<WebSocket>();
  private server?: Server;
  private stopping = false;
  private background: Promise<unknown>[] = [];
  private upgrades: UpgradeLimiter;
  /** The fan-out between instances; none on the embedded database. */
  readonly bus: SyncBus | undefined;

  private constructor(private opts: SyncServiceOptions) {
    const { db, config, log } = opts;
    this.bus = opts.bus;
    this.upgrades = new UpgradeLimiter(config.sync.upgradesPerMinute);
    this.wss = new WebSocketServer({
      noServer: true,
      maxPayload: config.sync.maxMessageBytes,
      perMessageDeflate: false,
      clientTracking: false,
      WebSocket: SyncSocket,
    });
    const writer = new LogWriter(
      db,
      this.instanceId,
      log,
      opts.onDurabilityLost ??
        ((err) => {
          log.fatal({ err }, 'a write of the sync log may not have reached disk; stopping so that a restart recovers');
          process.exit(70);
        }),
      this.bus,
    );
    this.compactor = new Compactor(db, log, (docId) => {
      const room = this.rooms.get(docId);
      if (room) room.rowsSinceSnapshot = 0;
    });
    this.awarenessRelay = new AwarenessRelay(this.bus, this.instanceId, log, (docId) => this.rooms.get(docId));
    const journal = journalOf(db);
    this.rechecks = new Rechecks(db, () => (journal ? (journal.gate.closed ? -1 : journal.gate.epoch) : undefined));
    if (journal) {
      const remove = journal.onSectionEnd(() => this.afterSection());
      this.unlisten.push(async () => void remove());
    }
    this.newStorage = journal
      ? () => new JournalStorage(journal, log)
      : () => new LogWriterStorage((docId, update) => writer.append(docId, update), log);
    this.quiet = new QuietScheduler(config.sync.quietMs, (docId) => this.onQuiet(docId), log);
    const contributors = new LiveContributors(db, log);
    this.host = {
      db,
      log,
      config: config.sync,
      instanceId: this.instanceId,
      edited: (room, editors) => {
        this.liveEditors.note(room.docId, editors);
        this.quiet.touch(room.docId);
        if (room.rowsSinceSnapshot >= config.sync.compactEvery) this.compactor.compact(room.docId, room);
        if (room.room.kind === 'changeRequest') return contributors.record(room, editors);
      },
      awarenessChanged: (room, clients, users) => this.awarenessRelay.changed(room, clients, users),
      emptied: (room) => this.roomEmptied(room),
    };
  }

  /**
   * A section (a REST write, a lock, a merge, a compaction) ended on the journaled
   * database, with the rooms still held: each loaded room learns whether the log moved past
   * its position and what its policy is now, before it journals anything again. Every room
   * is marked stale first, so if the reads fail each reads for itself.
   */
  private async afterSection() {
    const rooms = [...this.rooms.values()].filter((r) => !r.destroyed);
    for (const room of rooms) room.storage.markStale();
    if (rooms.length === 0) return;
    const { db } = this.opts;
    const seqs = await lastSeqs(
      db,
      rooms.map((r) => r.docId),
    );
    const { spaces, crs } = await this.rechecks.branchRows(rooms.map((r) => r.room));
    for (const room of rooms) {
      room.storage.logEndsAt(room, seqs.get(room.docId) ?? 0);
      const sr = room.room;
      try {
        room.setPolicy(policyOf(sr, spaces.get(sr.spaceId), sr.kind === 'changeRequest' ? crs.get(sr.changeRequestId) : undefined));
      } catch (err) {
        if (!(err instanceof SyncRefused)) throw err;
        room.setPolicy(err);
        room.closeAll(err.code, err.reason);
      }
    }
  }

  static async start(opts: SyncServiceOptions): Promise<SyncService> {
    const bus = opts.bus ?? (await busFor(opts.db, opts.config, opts.log));
    const service = new SyncService({ ...opts, bus });
    await service.listen();
    return service;
  }

  private async listen() {
    const { log } = this.opts;
    if (this.bus) {
      const bus = this.bus;
      await bus.start({
        rows: (notice) => this.onLogNotice(notice),
        awareness: (payload) => this.awarenessRelay.received(payload),
        missed: (docIds) => this.catchUp(docIds),
      });
      this.unlisten.push(() => bus.stop());
    }
    this.every(SWEEP_MS, () => this.sweep());
    this.every(POLICY_REFRESH_MS, () => this.rechecks.policies(this.rooms.values()));
    this.every(this.opts.config.sync.recheckMs, () => this.rechecks.connections(this.connections));
    this.every(HEARTBEAT_MS, () => this.heartbeat());
    this.background.push(
      this.cutPendingRevisions().catch((err) => log.error({ err }, 'cutting revisions for edits logged before the start failed')),
    );
    this.every(LEFT_BEHIND_MS, () => this.cutLeftBehind());
  }

  private every(ms: number, fn: () => Promise<void> | void) {
    let running = false;
    const timer = setInterval(async () => {
      if (running) return;
      running = true;
      try {
        await fn();
      } catch (err) {
        this.opts.log.error({ err }, 'sync background work failed');
      } finally {
        running = false;
      }
    }, ms);
    timer.unref();
    this.timers.push(timer);
  }

  /** Live edits logged before this start (a crash, a stop before the quiet period ended) get their revision. */
  private async cutPendingRevisions() {
    for (const docId of await docsAheadOfRevisions(this.opts.db)) {
      if (this.stopping) return;
      await this.onQuiet(docId);
    }
  }

  /**
   * Live edits whose instance died before their quiet period ended: that instance's timer is
   * gone with it, and nothing else would cut them until a restart. A document quiet for well
   * past the period was due long ago wherever it was edited; cutting it here twice is harmless
   * (a cut locks the branch and finds nothing new).
   */
  private async cutLeftBehind() {
    const quietForMs = this.opts.config.sync.quietMs * 2 + LEFT_BEHIND_MARGIN_MS;
    for (const docId of await docsAheadOfRevisions(this.opts.db, { quietForMs, notQuietForMs: LEFT_BEHIND_WINDOW_MS })) {
      if (this.stopping) return;
      await this.quiet.run(docId);
    }
  }

  private async onQuiet(docId: string) {
    if (this.opts.onQuiet) return this.opts.onQuiet(docId);
    // Loaded on first use: the sync endpoint does not need the content model to start.
    const { cutRevision } = await import('../core/content/revisions');
    const editors = this.liveEditors.take(docId);
    try {
      await cutRevision(this.opts.db, docId, { createdBy: editors[0] ?? null });
    } catch (err) {
      this.liveEditors.note(docId, editors);
      throw err;
    }
  }

  /** Serves WebSocket upgrades of `server` under `/v1/sync/`. */
  attach(server: Server) {
    this.server = server;
    server.on('upgrade', this.onUpgrade);
  }

  private onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (!url.pathname.startsWith(`${SYNC_PATH}/`)) {
      // Another endpoint may own this path; when none does, answer instead of hanging.
      if ((this.server?.listenerCount('upgrade') ?? 0) <= 1) refuseHttp(socket, 404, 'Not Found');
      return;
    }
    socket.on('error', () => {});
    const wait = this.upgrades.take(req.socket.remoteAddress ?? 'unknown');
    if (wait > 0) return refuseHttp(socket, 429, 'Too Many Requests', { 'Retry-After': String(wait) });
    void this.accept(req, socket, head, url);
  };

  /** Authenticates and authorizes before completing the upgrade, so a refusal is a close code before any document data. */
  private async accept(req: IncomingMessage, socket: Duplex, head: Buffer, url: URL) {
    const { db, log } = this.opts;
    const roomName = url.pathname.slice(SYNC_PATH.length + 1);
    let refusal: SyncRefused | undefined;
    let creds: Credentials | undefined;
    let room: SyncRoom | undefined;
    let role: Role | undefined;
    try {
      if (this.stopping) throw new SyncRefused(SyncClose.restarting, SyncCloseReason.restarting);
      const header = bearer(req);
      creds = header
        ? await authenticate(db, header, roomName, 'header')
        : await authenticate(db, url.searchParams.get('token') || undefined, roomName, 'query');
      room = parseRoom(roomName);
      if (!room) throw new SyncRefused(SyncClose.notFound, SyncCloseReason.unknownRoom);
      role = await roleInRoom(db, creds, room);
    } catch (err) {
      if (err instanceof SyncRefused) refusal = err;
      else {
        log.error({ err }, 'sync upgrade failed');
        refusal = new SyncRefused(SyncClose.storageFailed, SyncCloseReason.storageFailed);
      }
    }
    if (socket.destroyed) return;
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      if (this.stopping && !refusal) refusal = new SyncRefused(SyncClose.restarting, SyncCloseReason.restarting);
      if (refusal || !creds || !room || !role) {
        const r = refusal ?? new SyncRefused(SyncClose.storageFailed, SyncCloseReason.storageFailed);
        log.info({ room: roomName, code: r.code, reason: r.reason }, 'sync connection refused');
        ws.close(r.code, r.reason);
        return;
      }
      this.alive.add(ws);
      ws.on('pong', () => this.alive.add(ws));
      const conn = new Connection(ws, this.roomFor(room), creds, role, this.opts.config.sync, log, this.traffic);
      this.connections.add(conn);
      ws.on('close', () => this.connections.delete(conn));
      void conn.start();
    });
  }

  private roomFor(sr: SyncRoom): Room {
    const docId = roomDocId(sr);
    let room = this.rooms.get(docId);
    if (!room || room.destroyed || room.failed) {
      room = new Room(docId, sr, this.host, this.newStorage());
      this.rooms.set(docId, room);
      this.bus?.hold(docId);
    }
    return room;
  }

  private roomEmptied(room: Room): void {
    if (room.failed) return this.unload(room);
    clearTimeout(room.idleTimer);
    room.idleTimer = setTimeout(() => this.unload(room), this.opts.config.sync.idleMs);
    room.idleTimer.unref();
  }

  /** Drops an idle room from memory; its log is compacted on the way out. */
  private unload(room: Room): void {
    if (room.members.size > 0 || room.destroyed) return;
    if (room.busy && !room.failed) return this.roomEmptied(room);
    if (this.rooms.get(room.docId) === room) {
      this.rooms.delete(room.docId);
      this.bus?.release(room.docId);
    }
    if (room.rowsSinceSnapshot > 0 && !room.failed) this.compactor.compact(room.docId, room);
    room.destroy();
  }

  private onLogNotice({ origin, rows }: LogRows) {
    if (origin === this.instanceId) return;
    for (const { docId } of rows) this.rooms.get(docId)?.requestCatchUp();
  }

  /** The bus may have missed messages for these rooms (all when none named): they read the log past where they stand. */
  private catchUp(docIds?: string[]) {
    const rooms = docIds ? docIds.map((id) => this.rooms.get(id)) : [...this.rooms.values()];
    for (const room of rooms) room?.requestCatchUp();
  }

  /** Catches up rooms whose log moved without a notification reaching us (a dropped LISTEN connection). */
  private async sweep() {
    const loaded = [...this.rooms.values()].filter((r) => !r.destroyed && !r.busy);
    if (loaded.length === 0) return;
    const seqs = await lastSeqs(
      this.opts.db,
      loaded.map((r) => r.docId),
    );
    for (const room of loaded) if ((seqs.get(room.docId) ?? 0) > room.lastSeq) room.requestCatchUp();
  }

  private heartbeat() {
    for (const conn of this.connections) {
      const ws = conn.ws;
      if (!this.alive.has(ws)) {
        ws.terminate();
        continue;
      }
      this.alive.delete(ws);
      ws.ping();
    }
  }

  /** Connections and rooms now open, for diagnostics and tests. */
  stats() {
    return { rooms: this.rooms.size, connections: this.connections.size };
  }

  /** The loaded room of a document, if any. */
  loadedRoom(docId: string): Room | undefined {
    return this.rooms.get(docId);
  }

  /**
   * Closes every connection (1012, so clients reconnect elsewhere or later), lets stored
   * updates finish applying, cuts the revisions of edits still in their quiet period, and
   * stops listening.
   */
  async stop() {
    if (this.stopping) return;
    this.stopping = true;
    this.server?.off('upgrade', this.onUpgrade);
    for (const t of this.timers) clearInterval(t);
    this.awarenessRelay.stop();
    for (const conn of [...this.connections]) conn.close(SyncClose.restarting, SyncCloseReason.restarting);
    await Promise.all([...this.rooms.values()].map((r) => r.settled()));
    await this.quiet.flush();
    this.quiet.stop();
    await Promise.allSettled(this.background);
    await this.compactor.stop();
    for (const un of this.unlisten) await un().catch(() => {});
    for (const room of this.rooms.values()) room.destroy();
    this.rooms.clear();
    this.wss.close();
  }
}

/**
 * `ws` closes a connection whose message is over `maxPayload` by itself, with 1009 and no
 * reason; clients match refusals on the reasons in `shared/`, so this close carries its own.
 */
class SyncSocket extends WebSocket {
  override close(code?: number, reason?: string | Buffer) {
    super.close(code, code === SyncClose.messageTooBig && !reason ? SyncCloseReason.messageTooBig : reason);
  }
}

function bearer(req: IncomingMessage): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return match?.[1];
}

function refuseHttp(socket: Duplex, status: number, text: string, headers: Record<string, string> = {}) {
  const extra = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\n${extra}Content-Length: 0\r\n\r\n`);
}
