import type { Document } from '@quire/shared';
import type { Translation } from '@quire/shared/schemas/translation';
import type { OrgAccess } from '../access/callerAccess';
import { mayEditTranslations } from '../policies/translations';
import type { TranslationRow } from '../../store/translations';
import { compact, iso } from './iso';

/** What a translation without instructions shows: an empty document, as clients expect one. */
const NO_INSTRUCTIONS: Document = { object: 'document', data: {}, nodes: [] };

export function presentTranslation(t: TranslationRow, access: OrgAccess, base: string): Translation {
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
    permissions: { view: true, edit: mayEditTranslations(access) },
    urls: { location: `${base}/v1/orgs/${t.org_id}/translations/${t.id}` },
  });
}
