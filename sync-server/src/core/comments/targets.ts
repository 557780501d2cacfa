import { getPageDocument } from '@quire/shared/content/index';
import type { Db } from '../../store/db';
import type { Thread } from '../../store/comments';
import type { Materialized } from '../content/materialize';
import { branchHead, contentAtRevision, docAtRevision } from '../content/revisions';
import { pagePaths } from '../content/tree';
import { bodyNodes } from './nodes';

/** The page a comment targets, as its `target.page` shows it. */
export interface PageTarget {
  id: string;
  title?: string;
  emoji?: string;
  icon?: string;
  createdAt?: string;
  updatedAt?: string;
  path?: string;
  outdated: boolean;
}

/**
 * A thread's branch at its current head, read once per request: page metadata and paths
 * from the revision's materialized content, node ids from page bodies as needed.
 */
export class BranchView {
  private nodesByPage = new Map<string, Map<string, string> | null>();
  private paths?: Map<string, string>;

  private constructor(
    private db: Db,
    readonly revisionId: string | undefined,
    private content: Materialized | undefined,
  ) {}

  static async open(db: Db, thread: Thread): Promise<BranchView> {
    const head = await db.transaction((tx) => branchHead(tx, { spaceId: thread.spaceId, changeRequestId: thread.changeRequestId }));
    if (!head) return new BranchView(db, undefined, undefined);
    return new BranchView(db, head.id, await contentAtRevision(db, head.id));
  }

  hasPage(pageId: string): boolean {
    return !!this.content?.pages[pageId];
  }

  /** The nodes of a page body (id → text), or null when the page is gone. */
  async nodes(pageId: string): Promise<Map<string, string> | null> {
    if (this.nodesByPage.has(pageId)) return this.nodesByPage.get(pageId) ?? null;
    let nodes: Map<string, string> | null = null;
    if (this.revisionId && this.hasPage(pageId)) {
      const doc = await docAtRevision(this.db, this.revisionId);
      // The cached doc must be read before the next await: it may be handed on to a newer revision.
      nodes = bodyNodes(getPageDocument(doc, pageId));
    }
    this.nodesByPage.set(pageId, nodes);
    return nodes;
  }

  /** `target.page` of a comment: outdated once the page, or the node targeted in it, is gone. */
  async pageTarget(pageId: string, nodeId: string | null): Promise<PageTarget> {
    const entry = this.content?.pages[pageId];
    if (!entry) return { id: pageId, outdated: true };
    this.paths ??= pagePaths(this.content as Materialized);
    const outdated = nodeId ? !(await this.nodes(pageId))?.has(nodeId) : false;
    return {
      id: pageId,
      title: entry.title,
      emoji: entry.emoji ?? undefined,
      icon: entry.icon ?? undefined,
      createdAt: entry.createdAt,
      updatedAt: entry.updatedAt,
      path: this.paths.get(pageId),
      outdated,
    };
  }
}
