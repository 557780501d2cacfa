import type { Comment, CommentFormat, CommentReply } from '@quire/shared/schemas/comment';
import { presentBody } from '../comments/bodies';
import { type CommentsRead, commentPermissions, type RepliesRead, type Scope } from '../comments/threads';
import type { ReactionRow, ReplierRow } from '../../store/comments';
import type { UserRow } from '../../store/users';
import { compact, iso } from './iso';
import { presentUser } from './user';

/** Someone whose account is gone still shows as the author of what they wrote. */
const ghost = (id: string): UserRow => ({
  id,
  email: '',
  display_name: 'Deleted user',
  photo_url: null,
  email_verified: false,
  created_at: new Date(0),
});

/** The user with this id among those read, or the deleted user they were. */
function userOf(users: Map<string, UserRow>, id: string, base: string) {
  return presentUser(users.get(id) ?? ghost(id), base);
}

function groupReactions(rows: ReactionRow[], users: Map<string, UserRow>, base: string) {
  const bySubject = new Map<string, Map<string, { user: ReturnType<typeof presentUser>; reactedAt: string }[]>>();
  for (const r of rows) {
    const user = users.get(r.user_id);
    if (!user) continue;
    let byEmoji = bySubject.get(r.subject_id);
    if (!byEmoji) bySubject.set(r.subject_id, (byEmoji = new Map()));
    let list = byEmoji.get(r.emoji);
    if (!list) byEmoji.set(r.emoji, (list = []));
    list.push({ user: presentUser(user, base), reactedAt: iso(r.reacted_at) as string });
  }
  return (subjectId: string) =>
    [...(bySubject.get(subjectId) ?? new Map()).entries()].map(([emoji, users]) => ({ emoji, count: users.length, users }));
}

function groupRepliers(rows: ReplierRow[], users: Map<string, UserRow>, base: string) {
  const byComment = new Map<string, { user: ReturnType<typeof presentUser>; count: number; updatedAt: string }[]>();
  for (const r of rows) {
    const list = byComment.get(r.comment_id) ?? [];
    list.push({
      user: userOf(users, r.user_id, base),
      count: Number(r.count),
      updatedAt: iso(r.last_reply_at) as string,
    });
    byComment.set(r.comment_id, list);
  }
  return (commentId: string) => byComment.get(commentId) ?? [];
}

export function presentComments(read: CommentsRead, scope: Scope, base: string, format: CommentFormat | undefined): Comment[] {
  const { users } = read;
  const reactionsOf = groupReactions(read.reactions, users, base);
  const repliersOf = groupRepliers(read.repliers, users, base);
  return read.rows.map((r) => {
    const target = read.targets.get(r.id);
    return compact({
      object: 'comment' as const,
      id: r.id,
      postedBy: userOf(users, r.posted_by, base),
      postedAt: iso(r.posted_at) as string,
      editedAt: iso(r.edited_at),
      reactions: reactionsOf(r.id),
      replies: r.replies,
      repliers: repliersOf(r.id),
      body: presentBody(r.body, format),
      target: compact({
        page: target?.page,
        node: r.node_id ? compact({ id: r.node_id, preview: target?.nodePreview }) : undefined,
        tableCell: r.table_record && r.table_definition ? { record: r.table_record, definition: r.table_definition } : undefined,
        changeRequest: r.change_request_id ?? undefined,
        space: r.space_id,
        revision: r.revision_id ?? undefined,
      }),
      urls: { location: `${base}${scope.path}/comments/${r.id}` },
      permissions: commentPermissions(scope, r.posted_by),
      status: r.status,
      resolvedAt: iso(r.resolved_at),
      resolvedBy: r.resolved_by ? userOf(users, r.resolved_by, base) : undefined,
    });
  });
}

export function presentReplies(read: RepliesRead, scope: Scope, base: string, format: CommentFormat | undefined): CommentReply[] {
  const { users, comment } = read;
  const reactionsOf = groupReactions(read.reactions, users, base);
  return read.rows.map((r) =>
    compact({
      object: 'comment-reply' as const,
      id: r.id,
      postedBy: userOf(users, r.posted_by, base),
      postedAt: iso(r.posted_at) as string,
      editedAt: iso(r.edited_at),
      reactions: reactionsOf(r.id),
      body: presentBody(r.body, format),
      urls: { location: `${base}${scope.path}/comments/${comment.id}/replies/${r.id}` },
      permissions: commentPermissions(scope, r.posted_by),
    }),
  );
}
