import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Document } from '@quire/shared';
import type { Translation } from '@quire/shared/schemas/translation';
import type { Context } from 'hono';
import type { OrgAccess, Placed } from '../../core/access';
import { atLeast } from '../../core/roles';
import { scheduleTranslationRun } from '../../core/translations/run';
import { visibleSpaceIds } from '../../core/visibleSpaces';
import { getSpace } from '../../store/spaces';
import * as store from '../../store/translations';
import type { TranslationRow } from '../../store/translations';
import { notFound } from '@quire/shared/apiErrors';
import type { AppEnv } from '../env';
import { requireOrg } from '../guards';
import { envelope } from '../listing';
import { compact, iso } from '../presenters/iso';
import { baseUrl } from '../urls';
import * as r from './routes';

type Ctx = Context<AppEnv>;

/** Creating and running translations makes spaces: the organization's create role. */
const WRITE = 'create' as const;

/** What a translation without instructions shows: an empty document, as clients expect one. */
const NO_INSTRUCTIONS: Document = { object: 'document', data: {}, nodes: [] };

function present(t: TranslationRow, access: OrgAccess, base: string): Translation {
  return compact({
    object: 'translation' as const,
    id: t.id,
    status: t.status,
    source: compact({ space: t.source_space_id, language: t.source_language ?? undefined }),
    language: t.language,
    instructions: t.instructions ?? NO_INSTRUCTIONS,
    result: t.result_space_id ? compact({ space: t.result_space_id, revision: t.result_revision_id ?? undefined }) : undefined,
    error: t.status === 'failed' && t.error_code ? { code: t.error_code, message: t.error_message ?? '' } : undefined,
    // Out of date once the source has a revision the last completed run did not read.
    outdated: !!t.source_revision_id && !!t.source_head && t.source_head !== t.source_revision_id,
    conflicts: t.conflicts ?? [],
    schedule: t.schedule ?? 'manual',
    createdAt: iso(t.created_at) as string,
    updatedAt: iso(t.updated_at) as string,
    stats: {
      runs: Number(t.runs),
      totalWords: Number(t.total_words),
      totalPages: Number(t.total_pages),
      totalDuration: Number(t.total_duration_ms),
      latestRunDuration: Number(t.latest_run_duration_ms),
      latestPages: Number(t.latest_pages),
      latestWords: Number(t.latest_words),
    },
    permissions: { view: true, edit: atLeast(access.orgRole, WRITE) },
    urls: { location: `${base}/v1/orgs/${t.org_id}/translations/${t.id}` },
  });
}

/** Whether the caller sees the source space: a translation shows its content's existence. */
async function seesSource(c: Ctx, access: OrgAccess, spaceId: string): Promise<boolean> {
  const space = await getSpace(c.get('deps').db, spaceId);
  return !!space && space.org_id === access.orgId && !!access.roleOn(space);
}

async function requireTranslation(c: Ctx, orgId: string, id: string, write: boolean) {
  const { access } = await requireOrg(c, orgId);
  const t = await store.getTranslation(c.get('deps').db, orgId, id);
  if (!t || !(await seesSource(c, access, t.source_space_id))) throw notFound('translation');
  if (write) await requireOrg(c, orgId, WRITE);
  return { t, access };
}

export function registerTranslations(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.listTranslations, async (c) => {
    const { db } = c.get('deps');
    const { organizationId } = c.req.valid('param');
    const { access } = await requireOrg(c, organizationId);
    const visible = access.isAdmin ? undefined : await visibleSpaceIds(db, access, { orgId: organizationId });
    const page = await store.listTranslations(db, organizationId, visible, c.req.valid('query'));
    const base = baseUrl(c);
    return c.json(
      envelope(page, (t) => present(t, access, base)),
      200,
    );
  });

  app.openapi(r.createTranslation, async (c) => {
    const { organizationId } = c.req.valid('param');
    const { access } = await requireOrg(c, organizationId, WRITE);
    const b = c.req.valid('json');
    if (!(await seesSource(c, access, b.source.space))) throw notFound('space');
    const t = await store.insertTranslation(c.get('deps').db, organizationId, {
      sourceSpaceId: b.source.space,
      sourceLanguage: b.source.language ?? null,
      language: b.language,
      instructions: b.instructions ?? null,
      schedule: b.schedule,
    });
    return c.json(present(t, access, baseUrl(c)), 200);
  });

  app.openapi(r.getTranslation, async (c) => {
    const { organizationId, translationId } = c.req.valid('param');
    const { t, access } = await requireTranslation(c, organizationId, translationId, false);
    return c.json(present(t, access, baseUrl(c)), 200);
  });

  app.openapi(r.updateTranslation, async (c) => {
    const { db } = c.get('deps');
    const { organizationId, translationId } = c.req.valid('param');
    const { t, access } = await requireTranslation(c, organizationId, translationId, true);
    const b = c.req.valid('json');
    if (b.instructions) await store.setInstructions(db, t.id, b.instructions);
    if (b.schedule) await store.setSchedule(db, t.id, b.schedule);
    return c.json(present((await store.getTranslation(db, organizationId, t.id)) as TranslationRow, access, baseUrl(c)), 200);
  });

  app.openapi(r.deleteTranslation, async (c) => {
    const { db } = c.get('deps');
    const { organizationId, translationId } = c.req.valid('param');
    const { access } = await requireOrg(c, organizationId);
    const t = await store.getTranslation(db, organizationId, translationId);
    if (!t || !(await seesSource(c, access, t.source_space_id))) return c.body(null, 204);
    await requireOrg(c, organizationId, WRITE);
    await store.deleteTranslation(db, organizationId, t.id);
    return c.body(null, 204);
  });

  app.openapi(r.runTranslation, async (c) => {
    const { organizationId, translationId } = c.req.valid('param');
    const { t } = await requireTranslation(c, organizationId, translationId, true);
    await store.requestRun(c.get('deps').db, t.id);
    void scheduleTranslationRun(c.get('deps'), t.id);
    return c.body(null, 204);
  });
}
