import { Fragment, type ReactNode, useEffect, useRef, useState } from 'react';
import { useEscape } from './escape';
import type { BranchRef, CommentView } from '../../common/ipc';
import { branchKey } from '../../common/ipc';
import { bridge, call } from '../bridge';
import { Icon } from './Icons';
import { colorFor, initials, timeAgo } from './hooks';
import { COMMENT_ON_SELECTION, revealQuote, selectedText, splitQuote, withQuote } from '../review/commentAnchor';
import { selectionAnchor } from '../editor/commentHighlights';
import { notify } from './Toasts';

/** How often an open panel asks for new comments. */
const LIVE_MS = 2000;

const QUICK_REACTIONS = ['👍', '❤️', '🎉', '👀'];

/** A comment's markdown as text with its inline emphasis, code and links; nothing is injected as HTML. */
function InlineMarkdown({ text }: { text: string }) {
  const out: ReactNode[] = [];
  const pattern = /(\*\*[^*]+\*\*|\*[^*]+\*|`[^`]+`|\[[^\]]+\]\((https?:[^)\s]+)\))/g;
  text.split('\n').forEach((line, li) => {
    if (li > 0) out.push(<br key={`br${li}`} />);
    let last = 0;
    for (const m of line.matchAll(pattern)) {
      const token = m[0];
      if ((m.index ?? 0) > last) out.push(line.slice(last, m.index));
      const key = `${li}-${m.index}`;
      if (token.startsWith('**')) out.push(<strong key={key}>{token.slice(2, -2)}</strong>);
      else if (token.startsWith('`')) out.push(<code key={key}>{token.slice(1, -1)}</code>);
      else if (token.startsWith('[')) {
        const label = token.slice(1, token.indexOf(']'));
        out.push(
          <a key={key} href={m[2]} target="_blank" rel="noopener noreferrer">
            {label}
          </a>,
        );
      } else out.push(<em key={key}>{token.slice(1, -1)}</em>);
      last = (m.index ?? 0) + token.length;
    }
    if (last < line.length) out.push(line.slice(last));
  });
  return <>{out}</>;
}

function SyncBadge({ state, error }: { state: CommentView['syncState']; error: string | null }) {
  if (state === 'synced') return null;
  if (state === 'failed')
    return (
      <span className="badge badge-danger" title={error ?? undefined}>
        Not sent
      </span>
    );
  if (state === 'local') return <span className="badge badge-muted">On this device</span>;
  return <span className="badge badge-muted">Waiting to send</span>;
}

function Reactions({ reactions, onToggle }: { reactions: CommentView['reactions']; onToggle: (emoji: string, on: boolean) => void }) {
  const [picking, setPicking] = useState(false);
  return (
    <div className="reactions">
      {reactions.map((r) => (
        <button
          key={r.emoji}
          type="button"
          className={`reaction${r.mine ? ' is-mine' : ''}`}
          onClick={() => onToggle(r.emoji, !r.mine)}
          aria-pressed={r.mine}
        >
          {r.emoji} <span>{r.count}</span>
        </button>
      ))}
      <span className="reaction-picker">
        <button type="button" className="reaction reaction-add" aria-label="Add a reaction" onClick={() => setPicking((p) => !p)}>
          <Icon name="smile" size={14} />
        </button>
        {picking && (
          <span className="reaction-menu" onMouseLeave={() => setPicking(false)}>
            {QUICK_REACTIONS.map((e) => (
              <button
                key={e}
                type="button"
                onClick={() => {
                  setPicking(false);
                  onToggle(e, true);
                }}
              >
                {e}
              </button>
            ))}
          </span>
        )}
      </span>
    </div>
  );
}

function Composer({
  placeholder,
  onSend,
  autoFocus,
  focusKey,
  compact,
  quote,
  onDropQuote,
}: {
  placeholder: string;
  onSend: (text: string) => Promise<void>;
  autoFocus?: boolean;
  /** Takes the focus each time this changes (to a truthy value). */
  focusKey?: number;
  compact?: boolean;
  /** The passage the comment is about, shown above the text. */
  quote?: string | null;
  onDropQuote?: () => void;
}) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (focusKey) input.current?.focus();
  }, [focusKey]);
  const send = async () => {
    if (!text.trim()) return;
    setBusy(true);
    try {
      await onSend(text.trim());
      setText('');
    } catch (err) {
      notify('error', (err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className={`composer${compact ? ' is-compact' : ''}`}>
      {quote && (
        <div className="composer-quote" data-testid="comment-quote">
          <span>“{quote}”</span>
          <button type="button" className="icon-btn" aria-label="Comment on the whole page instead" onClick={onDropQuote}>
            <Icon name="x" size={13} />
          </button>
        </div>
      )}
      <textarea
        ref={input}
        value={text}
        placeholder={placeholder}
        aria-label={placeholder}
        rows={compact ? 1 : 2}
        autoFocus={autoFocus}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          // Enter sends, as in every chat; Shift+Enter is a new line.
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            void send();
          }
        }}
      />
      <div className="composer-foot">
        <span className="hint-keys muted small">
          <kbd>Enter</kbd> to send · <kbd>Shift</kbd>+<kbd>Enter</kbd> new line
        </span>
        <button type="button" className="btn btn-primary btn-small" disabled={busy || !text.trim()} onClick={() => void send()}>
          <Icon name="send" size={14} /> {compact ? 'Reply' : 'Comment'}
        </button>
      </div>
    </div>
  );
}

/** A comment's text, with the passage it is about as a quote that selects it in the page. */
function ThreadBody({ markdown }: { markdown: string }) {
  const { quote, text } = splitQuote(markdown);
  return (
    <>
      {quote && (
        <button
          type="button"
          className="thread-quote"
          title="Show this passage in the page"
          onClick={() => {
            if (!revealQuote(quote)) notify('info', 'This passage is no longer in the page.');
          }}
        >
          “{quote}”
        </button>
      )}
      <div className="thread-body">
        <InlineMarkdown text={text} />
      </div>
    </>
  );
}

function Thread({ comment, focused }: { comment: CommentView; focused?: number }) {
  const [replying, setReplying] = useState(false);
  const article = useRef<HTMLElement>(null);
  useEffect(() => {
    if (focused) article.current?.scrollIntoView({ block: 'nearest' });
  }, [focused]);
  const react = (replyId: string | undefined) => (emoji: string, on: boolean) =>
    void call('comments.react', { commentId: comment.id, replyId, emoji, on }).catch((err: Error) => notify('error', err.message));
  const author = comment.author?.displayName ?? 'Someone';
  return (
    <article
      ref={article}
      className={`thread${comment.resolved ? ' is-resolved' : ''}${focused ? ' is-focused' : ''}`}
      aria-current={focused ? 'true' : undefined}
      data-comment-id={comment.id}
    >
      <header className="thread-head">
        <span className="avatar" style={{ background: colorFor(comment.author?.id ?? author) }}>
          {initials(author)}
        </span>
        <div className="thread-meta">
          <strong>{author}</strong>
          <span>{timeAgo(comment.postedAt)}</span>
        </div>
        <SyncBadge state={comment.syncState} error={comment.error} />
        <button
          type="button"
          className={`icon-btn${comment.resolved ? ' is-on' : ''}`}
          title={comment.resolved ? 'Reopen' : 'Resolve'}
          aria-label={comment.resolved ? 'Reopen' : 'Resolve'}
          onClick={() =>
            void call('comments.resolve', { commentId: comment.id, resolved: !comment.resolved }).catch((err: Error) =>
              notify('error', err.message),
            )
          }
        >
          <Icon name="check" size={15} />
        </button>
      </header>
      <ThreadBody markdown={comment.body} />
      {comment.error && comment.syncState === 'failed' && <p className="form-error small">{comment.error}</p>}
      <Reactions reactions={comment.reactions} onToggle={react(undefined)} />
      {comment.replies.length > 0 && (
        <div className="replies">
          {comment.replies.map((r) => {
            const name = r.author?.displayName ?? 'Someone';
            return (
              <Fragment key={r.id}>
                <div className="reply" data-reply-id={r.id}>
                  <span className="avatar avatar-sm" style={{ background: colorFor(r.author?.id ?? name) }}>
                    {initials(name)}
                  </span>
                  <div className="reply-main">
                    <div className="thread-meta">
                      <strong>{name}</strong>
                      <span>{timeAgo(r.postedAt)}</span>
                      <SyncBadge state={r.syncState} error={r.error} />
                    </div>
                    <div className="thread-body">
                      <InlineMarkdown text={r.body} />
                    </div>
                    <Reactions reactions={r.reactions} onToggle={react(r.id)} />
                  </div>
                </div>
              </Fragment>
            );
          })}
        </div>
      )}
      {replying ? (
        <Composer
          compact
          autoFocus
          placeholder="Reply…"
          onSend={async (markdown) => {
            await call('comments.reply', { commentId: comment.id, markdown });
            setReplying(false);
          }}
        />
      ) : (
        !comment.resolved && (
          <button type="button" className="link-btn" onClick={() => setReplying(true)}>
            Reply
          </button>
        )
      )}
    </article>
  );
}

/**
 * Discussion of the open page: post, reply, react and resolve, offline too. Asked to
 * comment on a selected passage, the composer takes the focus (the words typed are the
 * comment's, never the page's) and the passage is marked in the page once it is sent.
 */
export function CommentsPanel({
  branch,
  pageId,
  pageTitle,
  focus,
  onClose,
}: {
  branch: BranchRef;
  pageId: string;
  pageTitle: string;
  /** A thread to show (a click on its passage in the page): its id, and how many times it was asked for. */
  focus?: { commentId: string; n: number } | null;
  onClose: () => void;
}) {
  const [comments, setComments] = useState<CommentView[]>([]);
  const [showResolved, setShowResolved] = useState(false);
  useEscape(onClose);
  // The passage selected in the page when the panel opened (or when asked again); `ask`
  // counts the times the composer was asked to take the focus (opening the panel is one).
  const [passage, setPassage] = useState(() => ({ quote: selectedText(), anchor: selectionAnchor(), ask: 1 }));
  const quote = passage.quote;
  useEffect(() => {
    const onAsk = () => setPassage((p) => ({ quote: selectedText(), anchor: selectionAnchor(), ask: p.ask + 1 }));
    window.addEventListener(COMMENT_ON_SELECTION, onAsk);
    return () => window.removeEventListener(COMMENT_ON_SELECTION, onAsk);
  }, []);
  const key = branchKey(branch);
  useEffect(() => {
    let alive = true;
    const load = () => void call('comments.list', { branch, pageId }).then((c) => alive && setComments(c));
    load();
    const off = bridge.on('comments.changed', (e) => e.branch === key && load());
    // While the panel is open, others' comments arrive by themselves: each listing asks the
    // server again (and announces a change only when there is one).
    const timer = setInterval(load, LIVE_MS);
    return () => {
      alive = false;
      off();
      clearInterval(timer);
    };
  }, [key, pageId]);
  const open = comments.filter((c) => !c.resolved);
  const resolved = comments.filter((c) => c.resolved);
  const isFocus = (c: CommentView) => !!focus && (c.id === focus.commentId || c.serverId === focus.commentId);
  const focusedResolved = resolved.some(isFocus);
  useEffect(() => {
    if (focusedResolved) setShowResolved(true);
  }, [focusedResolved, focus?.n]);
  const focusOf = (c: CommentView) => (isFocus(c) ? focus?.n : undefined);
  return (
    <aside className="panel" aria-label="Comments">
      <header className="panel-head">
        <div>
          <h2>Comments</h2>
          <p className="muted small">{pageTitle}</p>
        </div>
        <button type="button" className="icon-btn" aria-label="Close comments" onClick={onClose}>
          <Icon name="x" size={16} />
        </button>
      </header>
      <div className="panel-body">
        <Composer
          placeholder={quote ? 'Comment on the selected passage…' : 'Add a comment on this page…'}
          quote={quote}
          focusKey={passage.ask}
          onDropQuote={() => setPassage((p) => ({ ...p, quote: null, anchor: null }))}
          onSend={async (text) => {
            const anchor = quote ? passage.anchor : null;
            const created = await call('comments.create', {
              branch,
              pageId,
              markdown: withQuote(quote, text),
              ...(anchor ? { anchor } : {}),
            });
            setPassage((p) => ({ ...p, quote: null, anchor: null }));
            setComments((all) => [...all.filter((c) => c.id !== created.id), created]);
          }}
        />
        {open.length === 0 && (
          <div className="panel-empty">
            <Icon name="comment" size={22} />
            <p>No open comments on this page.</p>
          </div>
        )}
        {open.map((c) => (
          <Thread key={c.id} comment={c} focused={focusOf(c)} />
        ))}
        {resolved.length > 0 && (
          <button type="button" className="link-btn" onClick={() => setShowResolved((s) => !s)}>
            {showResolved ? 'Hide' : 'Show'} {resolved.length} resolved
          </button>
        )}
        {showResolved && resolved.map((c) => <Thread key={c.id} comment={c} focused={focusOf(c)} />)}
      </div>
    </aside>
  );
}
