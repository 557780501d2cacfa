import type { PageRevisionView } from '../../common/ipc';
import { timeAgo } from './hooks';
import { type HistoryGroup, avatarHue, initials, summarize } from './historyGroups';

const TYPE_LABEL: Record<string, string> = {
  merge: 'Merged a change request',
  import: 'Imported',
  template: 'Applied a template',
  update: 'Updated',
};

/** What an entry did, in one line: a restore names the version it brought back and who did it. */
export function entryLabel(g: HistoryGroup, all: PageRevisionView[]): string {
  const r = g.newest;
  if (r.type === 'restore') {
    const from = all.find((o) => o.revisionId === r.restoredFrom);
    const version = from ? `the version of ${new Date(from.createdAt).toLocaleString()}` : 'an earlier version';
    return `Restored ${version}${r.by ? ` · by ${r.by}` : ''}`;
  }
  const summary = summarize(g.pages);
  return TYPE_LABEL[r.type] ? `${TYPE_LABEL[r.type]} · ${summary}` : summary;
}

const clock = (iso: string) => new Date(iso).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });

/** A writer's picture, or their initials on a colour of their own. */
export function Avatar({ name, photo, id }: { name: string | null; photo: string | null; id: string | null }) {
  if (photo) return <img className="avatar" src={photo} alt="" aria-hidden="true" />;
  return (
    <span className="avatar" aria-hidden="true" style={{ background: `hsl(${avatarHue(id ?? name ?? '?')} 55% 42%)` }}>
      {initials(name)}
    </span>
  );
}

/**
 * One entry of the history: who, when, what changed (the pages touched and a summary), and
 * the versions it holds, each of which can be compared on its own.
 */
export function HistoryEntry({
  group,
  all,
  selected,
  reachable,
  onSelect,
}: {
  group: HistoryGroup;
  all: PageRevisionView[];
  selected: string | null;
  reachable: (r: PageRevisionView) => boolean;
  onSelect: (revisionId: string) => void;
}) {
  const r = group.newest;
  const span = group.from === group.to ? clock(group.to) : `${clock(group.from)}–${clock(group.to)}`;
  const shown = group.pages.slice(0, 3);
  const more = group.pages.length - shown.length;
  return (
    <li className={`history-group${r.type === 'restore' ? ' is-restore' : ''}`} data-author={group.authorId ?? ''}>
      <button
        type="button"
        className={`history-item${selected === r.revisionId ? ' is-active' : ''}`}
        aria-pressed={selected === r.revisionId}
        disabled={!reachable(r)}
        data-revision={r.revisionId}
        onClick={() => onSelect(r.revisionId)}
      >
        <Avatar name={group.author} photo={group.photo} id={group.authorId} />
        <span className="history-head">
          <span className="history-author">{group.author ?? 'Someone'}</span>
          <span className="history-when" title={`${new Date(group.from).toLocaleString()} – ${new Date(group.to).toLocaleString()}`}>
            {timeAgo(group.to)} · {span}
          </span>
        </span>
        <span className="history-what">{entryLabel(group, all)}</span>
        {shown.length > 0 && (
          <span className="history-pages">
            {shown.map((p) => p.title || 'Untitled').join(', ')}
            {more > 0 ? ` and ${more} more` : ''}
          </span>
        )}
        {!reachable(r) && <span className="muted small">Needs a connection</span>}
      </button>
      {group.revisions.length > 1 && (
        <details className="history-versions">
          <summary>{group.revisions.length} versions</summary>
          <ol>
            {group.revisions.map((v) => (
              <li key={v.revisionId}>
                <button
                  type="button"
                  className={`history-version${selected === v.revisionId ? ' is-active' : ''}`}
                  aria-pressed={selected === v.revisionId}
                  disabled={!reachable(v)}
                  data-version={v.revisionId}
                  onClick={() => onSelect(v.revisionId)}
                >
                  {clock(v.createdAt)} · {summarize(v.pages)}
                  {!reachable(v) && <span className="muted small"> · Needs a connection</span>}
                </button>
              </li>
            ))}
          </ol>
        </details>
      )}
    </li>
  );
}

/**
 * Edits made on this machine that the server has not taken in yet (offline, or not sent
 * yet): this writer's own, listed above what the server recorded.
 */
export function UnsentEntry({ me, pages }: { me: { id: string; name: string }; pages: { id: string; title: string }[] }) {
  const shown = pages.slice(0, 3);
  const more = pages.length - shown.length;
  return (
    <div className="history-group is-unsent" data-author={me.id}>
      <div className="history-item">
        <Avatar name={me.name} photo={null} id={me.id} />
        <span className="history-head">
          <span className="history-author">{me.name}</span>
          <span className="history-when">On this machine</span>
        </span>
        <span className="history-what">{summarize(pages.map((p) => ({ ...p, change: 'edited' as const })))} · not on the server yet</span>
        <span className="history-pages">
          {shown.map((p) => p.title || 'Untitled').join(', ')}
          {more > 0 ? ` and ${more} more` : ''}
        </span>
      </div>
    </div>
  );
}
