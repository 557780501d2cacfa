/**
 * The modules where a bug costs users data or safety, each with the source files mutated
 * and the test files that must notice. `npm run test:mutation -- <name...>` runs some.
 * Every mutant runs the tests that reach it, so the lists name focused files (the module
 * called directly, one database per file) rather than the end-to-end ones (the HTTP
 * permission table, the desktop outbox against a live server), which would make one module
 * take an hour on two cores.
 */
export interface MutationModule {
  mutate: string[];
  tests: string[];
}

export const MUTATION_MODULES: Record<string, MutationModule> = {
  access: {
    mutate: [
      'sync-server/src/core/access/callerAccess.ts',
      'sync-server/src/core/access/orgAccess.ts',
      'sync-server/src/core/access/roles.ts',
    ],
    tests: ['sync-server/src/core/access/callerAccess.test.ts', 'sync-server/src/core/access/accessLoading.test.ts'],
  },
  // Who may do what, per resource: pure tables and the state rules beside them.
  policies: {
    mutate: [
      'sync-server/src/core/policies/roleRules.ts',
      'sync-server/src/core/policies/spaces.ts',
      'sync-server/src/core/policies/changeRequests.ts',
      'sync-server/src/core/policies/collections.ts',
      'sync-server/src/core/policies/organizations.ts',
      'sync-server/src/core/policies/comments.ts',
      'sync-server/src/core/policies/git.ts',
    ],
    tests: ['sync-server/src/core/policies/policies.test.ts', 'sync-server/src/core/policies/git.test.ts'],
  },
  fetchGuard: {
    mutate: ['sync-server/src/core/security/fetchGuard.ts'],
    tests: ['sync-server/src/core/security/fetchGuard.test.ts'],
  },
  visitorAccess: {
    mutate: ['sync-server/src/core/sites/visitorAuth.ts', 'sync-server/src/sites/gate.ts'],
    tests: ['sync-server/src/sites/gate.test.ts'],
  },
  siteRendering: {
    mutate: ['sync-server/src/sites/render/html.ts'],
    tests: ['sync-server/src/sites/render/urlsAndAttributes.test.ts', 'sync-server/src/sites/attributeInjection.test.ts'],
  },
  rateLimit: {
    mutate: ['sync-server/src/http/middleware/rateLimit.ts'],
    tests: ['sync-server/src/http/middleware/rateLimiter.test.ts', 'sync-server/src/http/rateLimit.test.ts'],
  },
  syncStorage: {
    mutate: ['sync-server/src/store/ydocs.ts', 'sync-server/src/sync/updates.ts'],
    tests: ['sync-server/src/sync/updates.test.ts', 'sync-server/src/store/ydocs.test.ts'],
  },
  // The sync rooms' write path: what a room stores, relays, refuses and acknowledges (the
  // probe check and the batch row, the append and its refusal, the journal's seq and policy
  // check, catching up on rows other writers appended) and the log writer's group commit.
  // Only those parts of Room.ts and RoomDocument.ts: each mutant boots an embedded database
  // for the room's test, so the whole room (awareness, membership, bookkeeping: over 400
  // mutants) would take hours on two shared cores. The room's test drives it directly (stand-in connections, one
  // database): the socket-level sync tests start a whole server per file.
  syncRooms: {
    mutate: [
      'sync-server/src/sync/Room.ts:17-23',
      'sync-server/src/sync/Room.ts:198-289',
      'sync-server/src/sync/Room.ts:304-332',
      'sync-server/src/sync/RoomDocument.ts:125-146',
      'sync-server/src/sync/JournalStorage.ts',
      'sync-server/src/sync/LogWriterStorage.ts',
      'sync-server/src/sync/LogWriter.ts',
    ],
    tests: ['sync-server/src/sync/Room.test.ts', 'sync-server/src/sync/LogWriter.test.ts'],
  },
  // The sync journal on the embedded database: acknowledged edits live only here until drained.
  // What a record is on disk (torn and corrupt ones told apart from the zeroed end), the
  // append and its sync (nothing acknowledged before it), the drain with its checkpoint,
  // replay on start, and deleting files only once the database synced what came from them.
  // Its own tests drive it with a database per file; the readers' test starts a server.
  syncJournal: {
    mutate: [
      'sync-server/src/store/journal/Journal.ts',
      'sync-server/src/store/journal/frames.ts',
      'sync-server/src/store/journal/drainSql.ts',
    ],
    tests: ['sync-server/src/store/journal/journal.test.ts', 'sync-server/src/store/journal/journalSyncFailure.test.ts'],
  },
  changeRequests: {
    mutate: ['sync-server/src/core/content/changeRequests.ts'],
    tests: [
      'sync-server/src/core/content/changeRequestRules.test.ts',
      'sync-server/src/core/content/revisions.test.ts',
      'sync-server/src/core/content/compactedBranches.test.ts',
    ],
  },
  revisions: {
    mutate: ['sync-server/src/core/content/revisions.ts'],
    tests: [
      'sync-server/src/core/content/revisionCuts.test.ts',
      'sync-server/src/core/content/revisions.test.ts',
      'sync-server/src/core/content/compactedBranches.test.ts',
    ],
  },
  pagination: {
    mutate: ['sync-server/src/store/paginate.ts'],
    tests: ['sync-server/src/http/pagination.test.ts', 'sync-server/src/store/paginate.test.ts'],
  },
  outbox: {
    mutate: ['desktop/src/local/Outbox.ts'],
    tests: ['desktop/src/local/Outbox.test.ts'],
  },
  desktopReplay: {
    mutate: ['desktop/src/local/replay.ts'],
    tests: ['desktop/src/local/replay.test.ts'],
  },
  // Webhooks: the signature a receiver checks (HMAC over the timestamp and the body, replays
  // refused), what one delivery attempt makes of the answer (retries doubling, turned off
  // after a day), targets refused up front, and credentials in URLs hidden from readers.
  // The dispatcher's claiming loop (wake, pump, schedule) is left out: timing only.
  webhooks: {
    mutate: [
      'sync-server/src/core/webhooks/signing.ts',
      'sync-server/src/core/webhooks/backoff.ts',
      'sync-server/src/core/webhooks/targets.ts',
      'sync-server/src/core/webhooks/dispatcher.ts:47-57',
      'sync-server/src/core/webhooks/dispatcher.ts:156-206',
      'sync-server/src/core/security/shownUrl.ts',
    ],
    tests: [
      'sync-server/src/core/webhooks/signing.test.ts',
      'sync-server/src/core/webhooks/dispatcher.test.ts',
      'sync-server/src/core/security/shownUrl.test.ts',
    ],
  },
  // Who reads a site through the API (members by role, guests and outsiders only a published
  // site open to its audience, a share-link one with its key) and who changes or deletes it.
  // The published site's own gate (cookies, visitor tokens) is `visitorAccess` above.
  siteAccess: {
    mutate: ['sync-server/src/core/sites/siteAccess.ts', 'sync-server/src/core/security/secrets.ts:27-31'],
    tests: ['sync-server/src/core/sites/siteAccess.test.ts'],
  },
  // What an imported zip or tar.gz may unpack to: IMPORT_MAX_BYTES in all and per entry,
  // names that stay inside the archive, the wrapping folder taken off.
  archiveLimits: {
    mutate: ['sync-server/src/core/content/import/archive.ts'],
    tests: ['sync-server/src/core/content/import/archive.test.ts'],
  },
  // Which sockets may join which room: the upgrade's credential (API token in the header, a
  // single-use ticket for that one room), the role on the room's space, a change request room
  // naming a change request of that very space, and who may write there.
  syncRoomAccess: {
    mutate: ['sync-server/src/sync/access.ts', 'sync-server/src/sync/tickets.ts', 'shared/src/sync.ts:86-96'],
    tests: ['sync-server/src/sync/access.test.ts', 'shared/src/sync.test.ts'],
  },
  // Custom hostnames: the server's own names and paths are never a site's, and a name is a
  // site's only when its `_quire.<hostname>` TXT record names exactly that site.
  siteHostnames: {
    mutate: ['sync-server/src/core/sites/hostnameOwnership.ts'],
    tests: ['sync-server/src/core/sites/hostnameRules.test.ts'],
  },
  // What one visitor sees of a published site: spaces and sections whose condition holds for
  // the visitor's claims, the digest cached renders are shared by, and the root page (never a
  // hidden one or one below it). Tab ordering is left out: it shows nothing more or less.
  siteVisibility: {
    mutate: ['sync-server/src/sites/model.ts:102-137', 'sync-server/src/sites/model.ts:178-196', 'sync-server/src/sites/context.ts:68-76'],
    tests: ['sync-server/src/sites/visibility.test.ts'],
  },
  // The desktop's upload rewriting: `upload:<id>` blocks point at `file:<id>` only once the
  // server acknowledged the file's bytes, in one transaction with the file's record.
  desktopUploads: {
    mutate: ['desktop/src/local/fileBlocks.ts', 'desktop/src/common/fileRefs.ts'],
    tests: ['desktop/src/local/fileBlocks.test.ts'],
  },
  // MCP kept answers: which tool calls may be answered from kept bytes (one plain tools/call,
  // keyed by the tool and its canonical arguments) and what of an answer may be kept.
  mcpKeptAnswers: {
    mutate: ['sync-server/src/mcp/keptAnswers.ts'],
    tests: ['sync-server/src/mcp/plainCalls.test.ts'],
  },
};
