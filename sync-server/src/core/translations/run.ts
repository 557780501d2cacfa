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
import type { Deps } from '../deps';
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

/** The instructions as plain text for providers that take them. */
function instructionsText(t: TranslationRow): string | undefined {
  if (!t.instructions) return undefined;
  const text = bodyText(gitbookDocumentToBody(t.instructions)).trim();
  return text || undefined;
}

const running = new Map<string, Promise<void>>();

/** Starts a run in the background; the promise settles when it (and any run asked for meanwhile) ends. */
export function scheduleTranslationRun(deps: RunDeps, translationId: string, provider?: TranslationProvider): Promise<void> {
  const previous = running.get(translationId) ?? Promise.resolve();
  const run = previous
    .then(() => runTranslation(deps, translationId, provider))
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
export async function runTranslation(deps: RunDeps, translationId: string, provider = configuredProvider(deps.config)): Promise<void> {
  const { db } = deps;
  const t = await store.claimRun(db, translationId);
  if (!t) return;
  const started = performance.now();
  let pages = 0;
  let words = 0;
  let outcome: store.RunOutcome;
  try {
    if (!provider) throw new RunFailure('NO_PROVIDER', NO_PROVIDER_MESSAGE);
    const source = await readSource(deps, t.source_space_id);
    const space = await resultSpace(deps, t);
    const branch = { spaceId: space.id };
    const digests = await store.translatedDigests(db, t.id);
    const { doc: before } = await loadYDoc(db, branchDocId(branch));
    const changed = source.pages.filter((sp) => digests.get(sp.page.id) !== sp.digest || !getPage(before, sp.page.id));

    const translated = new Map<string, TranslatedPage>();
    const segments: Segment[] = [];
    for (const sp of changed) {
      const entry: TranslatedPage = { fields: pageFields(sp.page), body: structuredClone(sp.body) };
      segments.push(...textSegments(entry.fields.title, (v) => (entry.fields.title = v)));
      if (entry.fields.description) segments.push(...textSegments(entry.fields.description, (v) => (entry.fields.description = v)));
      segments.push(...bodySegments(entry.body));
      translated.set(sp.page.id, entry);
    }
    const sourceLanguage = t.source_language ?? (await getSpace(db, t.source_space_id))?.language ?? 'auto';
    words = countWords(segments.map((s) => s.text));
    pages = changed.length;
    await translateSegments(provider, segments, sourceLanguage, t.language, provider.acceptsInstructions ? instructionsText(t) : undefined);

    const inSource = new Set(source.pages.map((sp) => sp.page.id));
    const removed = [...digests.keys()].filter((id) => !inSource.has(id));
    const revision = await db.transaction(async (tx) => {
      const { doc } = await loadYDoc(tx, branchDocId(branch));
      const vector = Y.encodeStateVector(doc);
      applyToResult(doc, source, translated, removed);
      const cut = await commitToBranch(tx, branch, Y.encodeStateAsUpdate(doc, vector));
      await copySpaceFiles(tx, t.source_space_id, space.id);
      await store.recordPages(tx, t.id, new Map(changed.map((sp) => [sp.page.id, sp.digest])), removed);
      return cut?.revision.id ?? null;
    });
    outcome = { durationMs: performance.now() - started, pages, words, resultRevisionId: revision };
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
  const again = await store.finishRun(db, t.id, outcome);
  if (again) void scheduleTranslationRun(deps, translationId, provider);
}
