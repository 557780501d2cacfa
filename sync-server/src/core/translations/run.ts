import { createHash } from 'node:crypto';
import {
  type NodeJSON,
  type Page,
  type PageFields,
  addFile,
  bodyText,
  createPage,
  deletePage,
  getFile,
  getPage,
  getPageDocument,
  getVariables,
  gitbookDocumentToBody,
  listFiles,
  listPages,
  movePage,
  replaceVariables,
  setPageDocument,
  updatePage,
} from '@quire/shared/content/index';
import * as Y from 'yjs';
import type { Deps } from '../platform/deps';
import { copySpaceFiles } from '../../store/files';
import { createSpace, getSpace } from '../../store/spaces';
import * as store from '../../store/translations';
import type { TranslationRow } from '../../store/translations';
import { loadYDoc } from '../../store/ydocs';
import { branchDocId } from '../content/branches';
import { branchHead, commitToBranch, docAtRevision } from '../content/revisions';
import { ProviderError, type TranslationProvider, configuredProvider } from './provider';
import { type Segment, batches, bodySegments, countWords, textSegments } from './segments';

type RunDeps = Pick<Deps, 'db' | 'log' | 'config'>;

/** A run that cannot go on; its code and message become the translation's `error`. */
export class RunFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export const NO_PROVIDER_MESSAGE =
  'No translation provider is configured: set TRANSLATION_PROVIDER_URL to a LibreTranslate-compatible service (and TRANSLATION_PROVIDER_KEY if it needs a key). Nothing was translated.';

/** A source page as a run reads it: fields, body and a digest of both. */
interface SourcePage {
  page: Page;
  body: NodeJSON;
  digest: string;
  /** Parent as the tree shows it (a missing parent puts the page at the root). */
  parent: string | null;
}

interface SourceSnapshot {
  revisionId: string;
  pages: SourcePage[];
  variables: Record<string, string>;
  files: ReturnType<typeof listFiles>;
}

function digestOf(page: Page, body: NodeJSON): string {
  // Position is left out: a move is mirrored without translating the page again.
  const { parent: _p, order: _o, ...fields } = page;
  return createHash('sha256').update(JSON.stringify({ fields, body })).digest('base64url');
}

async function readSource(deps: RunDeps, spaceId: string): Promise<SourceSnapshot> {
  const head = await deps.db.transaction((tx) => branchHead(tx, { spaceId }));
  if (!head) throw new RunFailure('SOURCE_MISSING', 'The source space no longer exists.');
  const doc = await docAtRevision(deps.db, head.id);
  // The cached doc is read in one go, with no await, as the content model requires.
  const pages = listPages(doc);
  const ids = new Set(pages.map((p) => p.id));
  return {
    revisionId: head.id,
    pages: pages.map((page) => {
      const body = getPageDocument(doc, page.id);
      return { page, body, digest: digestOf(page, body), parent: page.parent && ids.has(page.parent) ? page.parent : null };
    }),
    variables: getVariables(doc),
    files: listFiles(doc),
  };
}

/** The result space: the existing one, or a new one in the source's organization and collection. */
async function resultSpace(deps: RunDeps, t: TranslationRow) {
  const existing = t.result_space_id ? await getSpace(deps.db, t.result_space_id) : undefined;
  if (existing) return existing;
  const source = await getSpace(deps.db, t.source_space_id);
  if (!source) throw new RunFailure('SOURCE_MISSING', 'The source space no longer exists.');
  return deps.db.transaction(async (tx) => {
    const space = await createSpace(tx, t.org_id, {
      title: `${source.title} (${t.language})`.slice(0, 256),
      emoji: source.emoji,
      parentId: source.parent_id,
      language: t.language,
    });
    await store.setResultSpace(tx, t.id, space.id);
    // A new result space holds nothing yet: every page is translated again.
    await store.forgetPages(tx, t.id);
    return space;
  });
}

/** A translated page: its fields and body, ready to write into the result space. */
interface TranslatedPage {
  fields: PageFields & { title: string };
  body: NodeJSON;
}

function pageFields(p: Page): PageFields & { title: string } {
  return {
    title: p.title,
    type: p.type,
    emoji: p.emoji,
    icon: p.icon,
    slug: p.slug,
    description: p.description,
    hidden: p.hidden,
    noIndex: p.noIndex,
    noRobotsIndex: p.noRobotsIndex,
    layout: p.layout,
    cover: p.cover,
    href: p.href,
    computed: p.computed,
    variables: p.variables,
  };
}

/** Sends every segment through the provider in bounded batches. */
async function translateSegments(
  provider: TranslationProvider,
  segments: Segment[],
  source: string,
  target: string,
  instructions?: string,
) {
  for (const batch of batches(segments)) {
    const out = await provider.translate({ texts: batch.map((s) => s.text), source, target, instructions });
    batch.forEach((s, i) => s.set(out[i] as string));
  }
}

/** Where a page goes among its siblings in the result, mirroring the source order. */
function placeIn(doc: Y.Doc, id: string, parent: string | null, previous: string | null) {
  const siblings = listPages(doc).filter((p) => (p.parent ?? null) === parent);
  const at = siblings.findIndex((p) => p.id === id);
  const current = at >= 0 ? getPage(doc, id) : null;
  const inPlace = current && (current.parent ?? null) === parent && (previous ? siblings[at - 1]?.id === previous : at === 0);
  if (inPlace) return;
  const first = siblings.find((p) => p.id !== id);
  const position = previous ? { parent, after: previous } : first ? { parent, before: first.id } : { parent };
  movePage(doc, id, position);
}

/**
 * Writes the run into the result space's main branch as one update (so connected editors
 * receive it) and cuts a revision: translated pages replace their earlier translation,
 * every page takes its source position, pages gone from the source are removed, and
 * variables and files follow the source. Pages added in the result space by hand stay.
 */
function applyToResult(doc: Y.Doc, source: SourceSnapshot, translated: Map<string, TranslatedPage>, removed: string[]) {
  const lastChild = new Map<string | null, string>();
  for (const sp of source.pages) {
    const previous = lastChild.get(sp.parent) ?? null;
    const t = translated.get(sp.page.id);
    if (!getPage(doc, sp.page.id)) {
      const fields = t?.fields ?? pageFields(sp.page);
      const position = previous ? { after: previous } : {};
      createPage(doc, { ...fields, id: sp.page.id, parent: sp.parent, ...position, document: t?.body ?? sp.body });
    } else {
      if (t) {
        updatePage(doc, sp.page.id, t.fields);
        setPageDocument(doc, sp.page.id, t.body);
      }
      placeIn(doc, sp.page.id, sp.parent, previous);
    }
    lastChild.set(sp.parent, sp.page.id);
  }
  for (const id of removed) deletePage(doc, id);
  replaceVariables(doc, source.variables);
  for (const f of source.files) if (!getFile(doc, f.id)) addFile(doc, f);
}

const blockDigest = (b: NodeJSON) => createHash('sha256').update(JSON.stringify(b)).digest('base64url');

/**
 * How a changed source page is carried into the result. Blocks whose source did not
 * change keep what the result page has now (a person's fix included); changed blocks are
 * translated, unless a person had fixed that block in the result: then the fix stays and
 * the page is reported as a conflict. A result page whose blocks a person added or removed
 * is left whole and reported.
 */
interface PagePlan {
  sp: SourcePage;
  fields: PageFields & { title: string };
  /** The result page's blocks, in source order: copies of source blocks to translate, or kept result blocks. */
  blocks: NodeJSON[];
  /** Per block: the digest the run had written for a kept block (so a person's fix stays recognised), null for a translated one. */
  kept: (string | null)[];
  keepTitle: boolean;
  keepPage: boolean;
  /** The title the run had written, when a person changed it since. */
  previousTitle: string | null;
  conflict?: string;
}

function planPage(sp: SourcePage, prev: store.TranslatedPageRecord | undefined, result: Y.Doc): PagePlan {
  const fields = pageFields(sp.page);
  const source = sp.body.content ?? [];
  const fresh: PagePlan = {
    sp,
    fields,
    blocks: source.map((b) => structuredClone(b)),
    kept: source.map(() => null),
    keepTitle: false,
    keepPage: false,
    previousTitle: null,
  };
  const page = getPage(result, sp.page.id);
  if (!prev?.sourceBlocks || !prev.resultBlocks || !page) return fresh;
  const current = getPageDocument(result, sp.page.id).content ?? [];
  const R = current.map(blockDigest);
  const M = prev.resultBlocks;
  const S = prev.sourceBlocks;
  const titleFixed = prev.resultTitle !== null && page.title !== prev.resultTitle;
  const titlePart = titleFixed ? { keepTitle: true, previousTitle: prev.resultTitle, fields: { ...fields, title: page.title } } : {};
  if (R.length !== M.length || M.length !== S.length) {
    const edited = R.length !== M.length || R.some((d, i) => d !== M[i]);
    if (!edited) return { ...fresh, ...titlePart };
    return {
      ...fresh,
      keepPage: true,
      conflict:
        'The source page changed, and the translated page was edited by hand (blocks added or removed): it was not translated again. Bring it in line by hand, or delete the translated page to have it translated afresh.',
    };
  }
  const free = new Map<string, number[]>();
  S.forEach((d, j) => free.set(d, [...(free.get(d) ?? []), j]));
  const used = new Set<number>();
  const plan: PagePlan = { ...fresh, ...titlePart, blocks: [], kept: [] };
  const pending: number[] = [];
  const slots: (number | null)[] = source.map((b, i) => {
    const j = free.get(blockDigest(b))?.shift();
    if (j === undefined) {
      pending.push(i);
      return null;
    }
    used.add(j);
    return j;
  });
  // A changed source block takes the place of the old block it replaced, in order.
  const replaced = S.map((_, j) => j).filter((j) => !used.has(j));
  const stand = new Map(pending.map((i, k) => [i, replaced[k]]));
  let fixed = 0;
  source.forEach((block, i) => {
    const j = slots[i] ?? stand.get(i);
    const reuse = slots[i] !== null || (j !== undefined && R[j] !== M[j]);
    if (slots[i] === null && reuse) fixed++;
    if (reuse && j !== undefined) {
      plan.blocks.push(current[j] as NodeJSON);
      plan.kept.push(M[j] as string);
    } else {
      plan.blocks.push(structuredClone(block));
      plan.kept.push(null);
    }
  });
  if (fixed)
    plan.conflict = `${fixed} ${fixed === 1 ? 'block was' : 'blocks were'} changed in the source after being fixed by hand in the translation: the fix was kept; check it against the new source.`;
  return plan;
}

/** What to remember of each page the run wrote, read back from the result as stored. */
function writtenRecords(doc: Y.Doc, plans: PagePlan[]) {
  const out = new Map<string, store.TranslatedPageRecord>();
  for (const plan of plans) {
    const id = plan.sp.page.id;
    if (plan.keepPage) continue;
    const written = getPageDocument(doc, id).content ?? [];
    out.set(id, {
      sourceDigest: plan.sp.digest,
      sourceBlocks: (plan.sp.body.content ?? []).map(blockDigest),
      resultBlocks: written.map((b, i) => plan.kept[i] ?? blockDigest(b)),
      resultTitle: plan.keepTitle ? plan.previousTitle : (getPage(doc, id)?.title ?? null),
    });
  }
  return out;
}

/** The instructions as plain text for providers that take them. */
function instructionsText(t: TranslationRow): string | undefined {
  if (!t.instructions) return undefined;
  const text = bodyText(gitbookDocumentToBody(t.instructions)).trim();
  return text || undefined;
}

const running = new Map<string, Promise<void>>();

/** Starts a run in the background; the promise settles when it (and any run asked for meanwhile) ends. */
export function scheduleTranslationRun(
  deps: RunDeps,
  translationId: string,
  provider?: TranslationProvider,
  opts: { takeover?: boolean } = {},
): Promise<void> {
  // A takeover of a run this process is already on (or waiting for) would only run it again.
  if (opts.takeover && running.has(translationId)) return running.get(translationId) as Promise<void>;
  const previous = running.get(translationId) ?? Promise.resolve();
  const run = previous
    .then(() => runTranslation(deps, translationId, provider, opts))
    .catch((err) => deps.log.error({ err, translationId }, 'translation run crashed'));
  running.set(translationId, run);
  void run.finally(() => {
    if (running.get(translationId) === run) running.delete(translationId);
  });
  return run;
}

/**
 * One run: copies the source space's current content into the result space (created on
 * the first run) in the target language, translating only changed pages since the last
 * run and only their text. Without a provider the run fails and says so; it never copies
 * untranslated text as if it were translated.
 */
export async function runTranslation(
  deps: RunDeps,
  translationId: string,
  provider = configuredProvider(deps.config),
  opts: { takeover?: boolean } = {},
): Promise<void> {
  const { db } = deps;
  const t = await store.claimRun(db, translationId, opts);
  if (!t) return;
  // The claim is a lease, renewed while the run works: if this process dies, another takes the run over.
  const lease = setInterval(() => {
    store
      .renewRunLease(db, t.id, t.run_started_at as Date)
      .catch((err) => deps.log.warn({ err, translationId }, 'renewing a translation run lease failed'));
  }, store.RUN_LEASE_MS / 4);
  lease.unref();
  try {
    await runClaimed(deps, t, provider);
  } finally {
    clearInterval(lease);
  }
}

async function runClaimed(deps: RunDeps, t: TranslationRow, provider: TranslationProvider | undefined): Promise<void> {
  const { db } = deps;
  const translationId = t.id;
  const started = performance.now();
  let pages = 0;
  let words = 0;
  let outcome: store.RunOutcome;
  try {
    if (!provider) throw new RunFailure('NO_PROVIDER', NO_PROVIDER_MESSAGE);
    const source = await readSource(deps, t.source_space_id);
    const space = await resultSpace(deps, t);
    const branch = { spaceId: space.id };
    const records = await store.translatedPages(db, t.id);
    const { doc: before } = await loadYDoc(db, branchDocId(branch));
    const changed = source.pages.filter((sp) => records.get(sp.page.id)?.sourceDigest !== sp.digest || !getPage(before, sp.page.id));

    const plans = changed.map((sp) => planPage(sp, records.get(sp.page.id), before));
    const conflicts: store.TranslationConflict[] = plans.flatMap((p) =>
      p.conflict ? [{ page: p.sp.page.id, title: p.sp.page.title, message: p.conflict }] : [],
    );
    const translated = new Map<string, TranslatedPage>();
    const segments: Segment[] = [];
    for (const plan of plans) {
      if (plan.keepPage) continue;
      const entry: TranslatedPage = { fields: plan.fields, body: { type: 'doc', content: plan.blocks } };
      if (!plan.keepTitle) segments.push(...textSegments(entry.fields.title, (v) => (entry.fields.title = v)));
      if (entry.fields.description) segments.push(...textSegments(entry.fields.description, (v) => (entry.fields.description = v)));
      segments.push(...bodySegments({ type: 'doc', content: plan.blocks.filter((_, i) => plan.kept[i] === null) }));
      translated.set(plan.sp.page.id, entry);
    }
    const sourceLanguage = t.source_language ?? (await getSpace(db, t.source_space_id))?.language ?? 'auto';
    words = countWords(segments.map((s) => s.plain));
    pages = translated.size;
    await translateSegments(provider, segments, sourceLanguage, t.language, provider.acceptsInstructions ? instructionsText(t) : undefined);

    const inSource = new Set(source.pages.map((sp) => sp.page.id));
    const removed = [...records.keys()].filter((id) => !inSource.has(id));
    const revision = await db.transaction(async (tx) => {
      const { doc } = await loadYDoc(tx, branchDocId(branch));
      const vector = Y.encodeStateVector(doc);
      applyToResult(doc, source, translated, removed);
      const cut = await commitToBranch(tx, branch, Y.encodeStateAsUpdate(doc, vector));
      await copySpaceFiles(tx, t.source_space_id, space.id);
      await store.recordPages(tx, t.id, writtenRecords(doc, plans), removed);
      return cut?.revision.id ?? null;
    });
    outcome = {
      durationMs: performance.now() - started,
      pages,
      words,
      resultRevisionId: revision,
      sourceRevisionId: source.revisionId,
      conflicts,
    };
  } catch (err) {
    const known = err instanceof RunFailure || err instanceof ProviderError;
    if (!known) deps.log.error({ err, translationId }, 'translation run failed unexpectedly');
    outcome = {
      durationMs: performance.now() - started,
      // Nothing was written: a failed run translated nothing that stayed.
      pages: 0,
      words: 0,
      error: known
        ? { code: err.code, message: err.message }
        : { code: 'INTERNAL_ERROR', message: 'The run failed unexpectedly; the error has been logged.' },
    };
  }
  const again = await store.finishRun(db, t.id, outcome, t.run_started_at);
  if (again) void scheduleTranslationRun(deps, translationId, provider);
}
