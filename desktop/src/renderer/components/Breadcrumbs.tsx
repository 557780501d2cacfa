import type { PageTreeNode } from '@quire/shared/content/tree';
import { Icon } from './Icons';

/** The pages above `page`, from the top, by their `parent` links (a broken link ends the trail). */
export function trailOf(page: PageTreeNode, byId: Map<string, PageTreeNode>): PageTreeNode[] {
  const trail: PageTreeNode[] = [];
  const seen = new Set([page.id]);
  let parent = page.parent ? byId.get(page.parent) : undefined;
  while (parent && !seen.has(parent.id)) {
    trail.unshift(parent);
    seen.add(parent.id);
    parent = parent.parent ? byId.get(parent.parent) : undefined;
  }
  return trail;
}

/** Space › parent pages › this page; every step but the last opens its page. */
export function Breadcrumbs({
  space,
  page,
  byId,
  onOpenPage,
}: {
  space: { title: string; emoji: string | null };
  page: PageTreeNode | null;
  byId: Map<string, PageTreeNode>;
  onOpenPage: (pageId: string) => void;
}) {
  const trail = page ? trailOf(page, byId) : [];
  return (
    <nav className="crumbs" aria-label="Breadcrumbs">
      <span className="crumb-space">
        <span>{space.emoji ?? '📘'}</span> {space.title}
      </span>
      {trail.map((p) => (
        <span key={p.id} className="crumb">
          <Icon name="chevronRight" size={13} />
          <button type="button" className="crumb-link" onClick={() => onOpenPage(p.id)}>
            {p.title || 'Untitled'}
          </button>
        </span>
      ))}
      {page && (
        <span className="crumb">
          <Icon name="chevronRight" size={13} />
          <span className="crumb-page" aria-current="page">
            {page.title || 'Untitled'}
          </span>
        </span>
      )}
    </nav>
  );
}
