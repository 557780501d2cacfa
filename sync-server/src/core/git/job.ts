import type { GitOperationEnd, GitOperationRow } from '../../store/git';
import type { SpaceRow } from '../../store/spaces';
import type { Deps } from '../platform/deps';
import type { Remote, RemoteLimits } from './remote';

/** One run of a claimed operation: what the import and the export work with. */
export interface GitJob {
  deps: Pick<Deps, 'db' | 'config' | 'log'>;
  op: GitOperationRow;
  space: SpaceRow;
  remote: Remote;
  limits: RemoteLimits;
}

/** How a run ended; `recorded` when the run ended the operation itself, in the transaction of its writes. */
export type GitRunResult = GitOperationEnd & { recorded?: boolean };
