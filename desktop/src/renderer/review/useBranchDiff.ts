import { useEffect, useState } from 'react';
import type { BranchReplica } from '../sync/BranchReplica';
import { type PageChange, diffPages, isLoaded } from './blockDiff';

/** After an edit, the diff is computed again once edits pause this long. */
const SETTLE_MS = 250;

/**
 * The pages a change request changes, computed in the window from its branch and main,
 * and again whenever either changes. Null while either branch is still loading (never a
 * diff against a branch that is not there yet).
 */
export function useBranchDiff(main: BranchReplica | null, branch: BranchReplica | null): PageChange[] | null {
  const [pages, setPages] = useState<PageChange[] | null>(null);
  useEffect(() => {
    setPages(null);
    if (!main || !branch) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const compute = () => {
      timer = undefined;
      if (!isLoaded(main.doc) || !isLoaded(branch.doc)) return setPages(null);
      setPages(diffPages(main.doc, branch.doc));
    };
    const schedule = () => {
      if (!timer) timer = setTimeout(compute, SETTLE_MS);
    };
    compute();
    main.doc.on('update', schedule);
    branch.doc.on('update', schedule);
    return () => {
      clearTimeout(timer);
      main.doc.off('update', schedule);
      branch.doc.off('update', schedule);
    };
  }, [main, branch]);
  return pages;
}
