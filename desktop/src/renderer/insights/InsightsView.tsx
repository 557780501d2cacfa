import { type ReactNode, useCallback, useEffect, useState } from 'react';
import { INSIGHTS_DAYS, type InsightsView as View } from '../../common/insights';
import { call } from '../bridge';
import { Icon } from '../components/Icons';
import { notify } from '../components/Toasts';
import { TimeChart } from './TimeChart';
import './insights.css';

type Days = (typeof INSIGHTS_DAYS)[number];

const READERS: Record<View['readers'][number]['kind'], string> = {
  people: 'People reading pages',
  llms: 'llms.txt (AI agents)',
  markdown: 'Pages as Markdown (agents)',
  mcp: 'MCP requests (agents)',
  crawlers: 'Crawlers and bots',
};
const FACES: Record<string, string> = { good: '🙂', ok: '😐', bad: '🙁' };

const fmt = (n: number) => n.toLocaleString('en');

/** A space's Insights: what the readers of the site that publishes it read, rate, miss and come from. */
export function InsightsView({ spaceId }: { spaceId: string }) {
  const [days, setDays] = useState<Days>(30);
  const [siteId, setSiteId] = useState<string | undefined>(undefined);
  const [view, setView] = useState<View | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(() => {
    setError(null);
    call('insights.get', { spaceId, days, ...(siteId ? { siteId } : {}) })
      .then(setView)
      .catch((err: Error) => setError(err.message));
  }, [spaceId, days, siteId]);
  useEffect(load, [load]);

  return (
    <div className="page-scroll">
      <section className="insights" data-testid="insights">
        <header className="insights-head">
          <div>
            <h1>Insights</h1>
            {view?.site && (
              <p className="muted">
                Readers of{' '}
                <a href={view.site.url} target="_blank" rel="noreferrer">
                  {view.site.title}
                </a>
                , counted without cookies or addresses.
              </p>
            )}
          </div>
          <span className="topbar-spacer" />
          {view && view.sites.length > 1 && (
            <select className="input" aria-label="Site" value={view.site?.id} onChange={(e) => setSiteId(e.target.value)}>
              {view.sites.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.title}
                </option>
              ))}
            </select>
          )}
          <div className="seg" role="tablist" aria-label="Range">
            {INSIGHTS_DAYS.map((d) => (
              <button
                key={d}
                type="button"
                role="tab"
                aria-selected={days === d}
                className={days === d ? 'is-active' : ''}
                onClick={() => setDays(d)}
              >
                {d} days
              </button>
            ))}
          </div>
          <button type="button" className="icon-btn" aria-label="Refresh insights" title="Refresh" onClick={load}>
            <Icon name="refresh" size={16} />
          </button>
        </header>
        {error ? (
          <Empty icon="warning" text={error} />
        ) : !view ? (
          <div className="insights-loading muted">Reading the site's insights…</div>
        ) : view.state !== 'ready' ? (
          <Empty icon={view.state === 'offline' ? 'cloudOff' : 'globe'} text={view.notice ?? ''} />
        ) : (
          <Report view={view} onChanged={load} />
        )}
      </section>
    </div>
  );
}

function Empty({ icon, text }: { icon: 'warning' | 'cloudOff' | 'globe' | 'chart'; text: string }) {
  return (
    <div className="empty-state insights-empty" data-testid="insights-empty">
      <Icon name={icon} size={30} />
      <p>{text}</p>
    </div>
  );
}

function Report({ view, onChanged }: { view: View; onChanged: () => void }) {
  const max = (xs: number[]) => Math.max(1, ...xs);
  const topMax = max(view.topPages.map((p) => p.views));
  const readersMax = max(view.readers.map((r) => r.requests));
  return (
    <>
      {view.notice && <div className="banner insights-notice">{view.notice}</div>}
      <div className="insights-stats">
        <Stat label="Page views" value={view.totals.views} />
        <Stat label="Visitors" value={view.totals.visitors} />
        <Stat label="Agent and crawler requests" value={view.totals.agentRequests} />
      </div>
      <Card title="Visitors and page views" wide>
        <TimeChart daily={view.daily} />
      </Card>
      <div className="insights-grid">
        <Card title="Top pages" testId="top-pages" empty={!view.topPages.length && 'No page was read in this range.'}>
          {view.topPages.map((p) => (
            <Bar
              key={p.path}
              label={p.path}
              mono
              value={p.views}
              max={topMax}
              note={`${fmt(p.visitors)} ${p.visitors === 1 ? 'visitor' : 'visitors'}`}
            />
          ))}
        </Card>
        <Card
          title="Where readers come from"
          testId="readers"
          empty={!view.readers.some((r) => r.requests) && 'No reader yet: people, agents reading llms.txt and MCP clients show here.'}
        >
          {view.readers
            .filter((r) => r.requests)
            .map((r) => (
              <Bar
                key={r.kind}
                label={READERS[r.kind]}
                value={r.requests}
                max={readersMax}
                tone={r.kind === 'people' ? 'accent' : 'blue'}
              />
            ))}
          {view.referrers.length > 0 && <h3 className="insights-sub">Referrers</h3>}
          {view.referrers.map((r) => (
            <div key={r.domain} className="insights-row">
              <span className="insights-path">{r.domain}</span>
              <span className="insights-num">{fmt(r.views)}</span>
            </div>
          ))}
        </Card>
        <Card
          title="Ratings, worst first"
          testId="ratings"
          empty={!view.ratings.length && 'No ratings yet. Readers rate each page at its end (“Was this page helpful?”).'}
        >
          {view.ratings.map((r) => (
            <div key={r.path} className="insights-rating">
              <div className="insights-row">
                <span className="insights-path">{r.path}</span>
                <span className="insights-faces" aria-label={`${r.good} good, ${r.ok} ok, ${r.bad} bad`}>
                  <span className="is-bad">🙁 {r.bad}</span> <span>😐 {r.ok}</span> <span className="is-good">🙂 {r.good}</span>
                </span>
              </div>
              {r.comments.map((c, i) => (
                <blockquote key={i} className="insights-comment">
                  <span aria-hidden>{FACES[c.rating] ?? ''}</span> {c.comment}
                </blockquote>
              ))}
            </div>
          ))}
        </Card>
        <Card
          title="What to write next"
          testId="empty-searches"
          hint="Searches that found nothing"
          empty={!view.emptySearches.length && 'Every search found something. Searches with no result show here.'}
        >
          {view.emptySearches.map((s) => (
            <div key={s.query} className="insights-row">
              <span className="insights-query">“{s.query}”</span>
              <span className="insights-num">{fmt(s.times)}×</span>
            </div>
          ))}
        </Card>
        <Card title="Broken URLs" testId="broken-urls" wide empty={!view.brokenUrls.length && 'No reader landed on a missing page.'}>
          {view.brokenUrls.map((b) => (
            <BrokenUrl key={b.path} view={view} broken={b} onChanged={onChanged} />
          ))}
        </Card>
      </div>
    </>
  );
}

function BrokenUrl({ view, broken, onChanged }: { view: View; broken: View['brokenUrls'][number]; onChanged: () => void }) {
  const [busy, setBusy] = useState(false);
  const site = view.site;
  const create = () => {
    if (!site || !broken.suggestion) return;
    setBusy(true);
    call('insights.createRedirect', { organizationId: site.organizationId, siteId: site.id, source: broken.path, to: broken.suggestion })
      .then(() => {
        notify('info', `Readers of ${broken.path} now go to ${broken.suggestion?.path}.`);
        onChanged();
      })
      .catch((err: Error) => notify('error', err.message))
      .finally(() => setBusy(false));
  };
  return (
    <div className="insights-row insights-broken" data-testid="broken-url">
      <span className="insights-path">{broken.path}</span>
      <span className="insights-num">{fmt(broken.hits)} hits</span>
      <span className="insights-suggest">
        {broken.redirected ? (
          <span className="insights-done">
            <Icon name="check" size={14} /> Redirected
          </span>
        ) : broken.suggestion ? (
          <>
            <span className="muted">→ {broken.suggestion.path}</span>
            <button type="button" className="btn btn-small" disabled={busy} onClick={create}>
              Create redirect
            </button>
          </>
        ) : (
          <span className="muted">No page to suggest</span>
        )}
      </span>
    </div>
  );
}

function Stat({ label, value }: { label: string; value: number }) {
  return (
    <div className="insights-stat">
      <span className="insights-stat-value">{fmt(value)}</span>
      <span className="muted">{label}</span>
    </div>
  );
}

function Card({
  title,
  hint,
  testId,
  wide,
  empty,
  children,
}: {
  title: string;
  hint?: string;
  testId?: string;
  wide?: boolean;
  empty?: string | false;
  children: ReactNode;
}) {
  return (
    <div className={`insights-card${wide ? ' is-wide' : ''}`} data-testid={testId}>
      <h2>
        {title} {hint && <span className="muted">· {hint}</span>}
      </h2>
      {empty ? <p className="muted insights-card-empty">{empty}</p> : children}
    </div>
  );
}

function Bar({
  label,
  value,
  max,
  note,
  mono,
  tone = 'accent',
}: {
  label: string;
  value: number;
  max: number;
  note?: string;
  /** A path, set in the code font. */
  mono?: boolean;
  tone?: 'accent' | 'blue';
}) {
  return (
    <div className="insights-bar">
      <span className={`insights-bar-fill is-${tone}`} style={{ width: `${(100 * value) / max}%` }} />
      <span className={mono ? 'insights-path' : 'insights-label'}>{label}</span>
      {note && <span className="muted insights-note">{note}</span>}
      <span className="insights-num">{fmt(value)}</span>
    </div>
  );
}
