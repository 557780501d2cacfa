import { copySpaceFiles } from '../../store/files';
import { onSpaceCopy } from '../spaces/copySteps';
import { copySpaceContent } from './revisions';

let registered = false;

/** A duplicated space gets the source's content (its main branch as it is now) and files. */
export function registerContentCopyStep() {
  if (registered) return;
  registered = true;
  onSpaceCopy(async (tx, fromSpaceId, toSpaceId) => {
    await copySpaceFiles(tx, fromSpaceId, toSpaceId);
    await copySpaceContent(tx, fromSpaceId, toSpaceId);
  });
}
