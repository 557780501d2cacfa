import { fileByPath as findByPath } from '@quire/shared/content/filePaths';
import type { SpaceFile } from './contentSource';

export { isRelativePath } from '@quire/shared/content/filePaths';

/** The space file a repository path written in a page names (see `@quire/shared/content/filePaths`). */
export function fileByPath(files: Record<string, SpaceFile>, path: string): SpaceFile | undefined {
  return findByPath(Object.values(files), path);
}
