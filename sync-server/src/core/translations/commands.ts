import type { CreateTranslationBody, Translation, UpdateTranslationBody } from '@quire/shared/schemas/translation';
import { notFound } from '@quire/shared/domainErrors';
import type { z } from 'zod';
import { orgSeenBy } from '../access/resourceAccess';
import type { CommandContext } from '../platform/deps';
import { presentTranslation } from '../views/translation';
import { requireTranslation, requireWriter, seesSource } from './rules';
import { scheduleTranslationRun } from './run';
import * as store from '../../store/translations';
import type { TranslationRow } from '../../store/translations';

/*
 * The writes of the `/v1` translation operations, one function each, taking the caller's
 * context and the operation's input (core/policies/translations.ts says who may).
 */

type TranslationRef = { organizationId: string; translationId: string };

/** A new translation of a space the caller sees; the caller holds the write role. */
export async function createTranslation(
  ctx: CommandContext,
  input: { organizationId: string; fields: CreateTranslationBody },
): Promise<Translation> {
  const { db } = ctx.deps;
  const b = input.fields;
  const { access } = await orgSeenBy(db, ctx.access, input.organizationId, 'translate');
  if (!(await seesSource(db, access, b.source.space))) throw notFound('space');
  const t = await store.insertTranslation(db, access.orgId, {
    sourceSpaceId: b.source.space,
    sourceLanguage: b.source.language ?? null,
    language: b.language,
    instructions: b.instructions ?? null,
    schedule: b.schedule,
  });
  return presentTranslation(t, access, ctx.baseUrl);
}

export async function updateTranslation(
  ctx: CommandContext,
  input: TranslationRef & { changes: z.output<typeof UpdateTranslationBody> },
): Promise<Translation> {
  const { db } = ctx.deps;
  const b = input.changes;
  const { access } = await orgSeenBy(db, ctx.access, input.organizationId);
  const t = await requireTranslation(db, access, input.translationId, true);
  if (b.instructions) await store.setInstructions(db, t.id, b.instructions);
  if (b.schedule) await store.setSchedule(db, t.id, b.schedule);
  return presentTranslation((await store.getTranslation(db, access.orgId, t.id)) as TranslationRow, access, ctx.baseUrl);
}

/** Deletes a translation; one the caller does not see (or that is gone) changes nothing. */
export async function deleteTranslation(ctx: CommandContext, input: TranslationRef): Promise<void> {
  const { db } = ctx.deps;
  const { access } = await orgSeenBy(db, ctx.access, input.organizationId);
  const t = await store.getTranslation(db, access.orgId, input.translationId);
  if (!t || !(await seesSource(db, access, t.source_space_id))) return;
  requireWriter(access);
  await store.deleteTranslation(db, access.orgId, t.id);
}

/** Asks for a run now; the run itself happens in the background. */
export async function runTranslation(ctx: CommandContext, input: TranslationRef): Promise<void> {
  const { deps } = ctx;
  const { access } = await orgSeenBy(deps.db, ctx.access, input.organizationId);
  const t = await requireTranslation(deps.db, access, input.translationId, true);
  await store.requestRun(deps.db, t.id);
  void scheduleTranslationRun(deps, t.id);
}
