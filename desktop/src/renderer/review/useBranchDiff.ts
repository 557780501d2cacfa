import { useEffect, useState } from 'react';
import * as Y from 'yjs';
import type { ChangeRequestSummary } from '../../common/ipc';
import { call } from '../bridge';
import type { BranchReplica } from '../sync/BranchReplica';
import { fromBase64 } from '../sync/base64';
import { type PageChange, diffPages, isLoaded } from './blockDiff';

/** After an edit, the diff is computed again once edits pause this long. */
const SETTLE_MS = 250;

/** Where a change request started: main as it took it in, or why that is not known yet. */
export type BaseState = { state: 'loading' } | { state: 'missing' } | { state: 'ready'; doc: Y.Doc };

/**
 * Main as the change request took it in (opened, or last updated from main): what its
 * changes are drawn against. Asked for again when that changes (an update from main).
 */
export function useChangeRequestBase(cr: Pick<ChangeRequestSummary, 'id' | 'base'>): BaseState {
  const [base, setBase] = useState<BaseState>({ state: 'loading' });
  useEffect(() => {
    let alive = true;
    let doc: Y.Doc | undefined;
    call('changeRequests.base', { changeRequestId: cr.id })
      .then(({ state }) => {
        if (!alive) return;
        if (!state) return setBase((b) => (b.state === 'ready' ? b : { state: 'missing' }));
        doc = new Y.Doc();
        Y.applyUpdate(doc, fromBase64(state));
        setBase({ state: 'ready', doc });
      })
      .catch(() => alive && setBase((b) => (b.state === 'ready' ? b : { state: 'missing' })));
    return () => {
      alive = false;
    };
  }, [cr.id, cr.base]);
  // A base no longer shown is let go.
  useEffect(() => {
    if (base.state !== 'ready') return;
    return () => base.doc.destroy();
  }, [base]);
  return base;
}

/**
 * The pages that differ from `base` to `branch`, computed in the window and again whenever
 * the branch changes. Null while either is not there yet (never a diff against a branch
 * that has not loaded).
 */
export function useBranchDiff(base: Y.Doc | null, branch: BranchReplica | null): PageChange[] | null {
  const [pages, setPages] = useState<PageChange[] | null>(null);
  useEffect(() => {
    setPages(null);
    if (!base || !branch) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const compute = () => {
      timer = undefined;
      if (!isLoaded(branch.doc)) return setPages(null);
      setPages(diffPages(base, branch.doc));
    };
    const schedule = () => {
      if (!timer) timer = setTimeout(compute, SETTLE_MS);
    };
    compute();
    branch.doc.on('update', schedule);
    return () => {
      clearTimeout(timer);
      branch.doc.off('update', schedule);
    };
  }, [base, branch]);
  return pages;
}
