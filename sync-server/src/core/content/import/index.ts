import type { Config } from '../../../config';
import type { Db } from '../../../store/db';
import { linkSpaceFile, putBlob } from '../../../store/files';
import type { Branch } from '../branches';
import { lockActiveBranch } from '../changeRequests';
import { editBranch } from '../revisions';
import { ImportFetcher } from './fetcher';
import { planMarkdownImport } from './markdown';
import { type UnmappedItem, applyPlan } from './plan';
import { planWebsiteImport } from './website';

export interface ImportRequest {
  url: string;
  source: 'website' | 'markdown';
}

export interface ImportResult {
  revision: string;
  importedResources: number;
  totalResources: number;
  /** What the source holds that the import kept only as written, or could not read, with file and line. */
  unmapped: UnmappedItem[];
}

/**
 * Imports a website or markdown into a branch. Everything is fetched and converted first;
 * only then, in one transaction, are the files stored and the pages added (after the
 * existing ones) as one `import` revision. A failed fetch therefore changes nothing.
 */
export async function importIntoBranch(
  deps: { db: Db; config: Config },
  branch: Branch,
  req: ImportRequest,
  userId: string,
): Promise<ImportResult> {
  const fetcher = new ImportFetcher(deps.config.content, deps.config.allowPrivateFetch);
  const plan =
    req.source === 'website'
      ? await planWebsiteImport(fetcher, req.url, deps.config.content)
      : await planMarkdownImport(fetcher, req.url, deps.config.content);
  const { revision } = await deps.db.transaction(async (tx) => {
    // The fetch took time: a change request merged meanwhile takes no more content.
    await lockActiveBranch(tx, branch);
    for (const f of plan.files) {
      const hash = await putBlob(tx, f.bytes, f.contentType);
      await linkSpaceFile(tx, branch.spaceId, f.id, hash);
    }
    return editBranch(tx, branch, (doc) => applyPlan(doc, plan), { type: 'import', createdBy: userId });
  });
  return {
    revision: revision.id,
    importedResources: plan.importedResources,
    totalResources: plan.totalResources,
    unmapped: plan.unmapped ?? [],
  };
}
