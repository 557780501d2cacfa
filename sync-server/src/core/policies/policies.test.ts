import type { Role } from '@quire/shared';
import { describe, expect, it } from 'vitest';
import { type ChangeRequestAction, changeRequestPermissions, mayChangeRequest, mayReview } from './changeRequests';
import { type CollectionAction, collectionPermissions, mayCollection } from './collections';
import { type CommentAction, commentPermissions, commentRoleFor, mayComment } from './comments';
import { type OrganizationAction, mayOrganization, organizationPermissions, organizationRoleFor } from './organizations';
import { type SpaceAction, maySpace, shareLinkReaderPermissions, spacePermissions, spaceUpdateAction } from './spaces';

/**
 * Every policy as a table: one row per action, one column per role, `x` allowed and `.`
 * refused. Columns: no role, read, comment, edit, review, create, admin.
 */
const ROLES: (Role | null)[] = [null, 'read', 'comment', 'edit', 'review', 'create', 'admin'];

function rows<A extends string>(table: Record<A, string>): [A, string][] {
  return Object.entries(table).map(([action, cells]) => [action as A, (cells as string).replace(/\s/g, '')]);
}

function expectTable<A extends string>(table: Record<A, string>, may: (role: Role | null, action: A) => boolean) {
  for (const [action, cells] of rows(table)) {
    const got = ROLES.map((role) => (may(role, action) ? 'x' : '.')).join('');
    expect(got, action).toBe(cells);
  }
}

const live = { edit_mode: 'live' as const };
const locked = { edit_mode: 'locked' as const };

describe('space policy', () => {
  it('decides by role on a live space', () => {
    expectTable<SpaceAction>(
      {
        view: '. x x x x x x',
        comment: '. . x x x x x',
        edit: '. . . x x x x',
        openChangeRequest: '. . . x x x x',
        updateDetails: '. . . x x x x',
        review: '. . . . x x x',
        merge: '. . . . x x x',
        administer: '. . . . . . x',
      },
      (role, action) => maySpace(role, action, live),
    );
  });

  it('takes no edits or merges in a locked space, and only an admin changes its details', () => {
    expectTable<SpaceAction>(
      {
        view: '. x x x x x x',
        comment: '. . x x x x x',
        edit: '. . . . . . .',
        openChangeRequest: '. . . x x x x',
        updateDetails: '. . . . . . x',
        review: '. . . . x x x',
        merge: '. . . . . . .',
        administer: '. . . . . . x',
      },
      (role, action) => maySpace(role, action, locked),
    );
  });

  it('asks an admin for any field beyond title, emoji, icon and language', () => {
    expect(spaceUpdateAction({ title: 'New', emoji: '📘', icon: null, language: 'fr' })).toBe('updateDetails');
    expect(spaceUpdateAction({ title: 'New', visibility: 'public' })).toBe('administer');
    expect(spaceUpdateAction({ editMode: 'locked' })).toBe('administer');
  });

  it('shows a share-link reader the space as readable and nothing more', () => {
    expect(shareLinkReaderPermissions(null, live)).toEqual({ ...spacePermissions(null, live), view: true, access: true });
    expect(Object.entries(shareLinkReaderPermissions(null, live)).filter(([, v]) => v)).toEqual([
      ['view', true],
      ['access', true],
    ]);
  });
});

describe('change request policy', () => {
  const open = { active: true };
  const merged = { active: false };

  it('decides by role on the space while the request is open', () => {
    expectTable<ChangeRequestAction>(
      {
        view: '. x x x x x x',
        comment: '. . x x x x x',
        edit: '. . . x x x x',
        askForReviews: '. . . x x x x',
        review: '. . . . x x x',
        merge: '. . . . x x x',
      },
      (role, action) => mayChangeRequest(role, action, open, live),
    );
  });

  it('takes no edits, reviews or merges once merged or archived', () => {
    expectTable<ChangeRequestAction>(
      {
        view: '. x x x x x x',
        comment: '. . x x x x x',
        edit: '. . . . . . .',
        askForReviews: '. . . x x x x',
        review: '. . . . . . .',
        merge: '. . . . . . .',
      },
      (role, action) => mayChangeRequest(role, action, merged, live),
    );
  });

  it('counts a review from anyone asked for one, and from reviewers unasked', () => {
    expect(ROLES.map((r) => mayReview(r, true))).toEqual(ROLES.map(() => true));
    expect(ROLES.map((r) => (mayReview(r, false) ? 'x' : '.')).join('')).toBe('....xxx');
  });

  it('merges nothing into a locked space', () => {
    expect(ROLES.map((r) => mayChangeRequest(r, 'merge', open, locked))).toEqual(ROLES.map(() => false));
    expect(changeRequestPermissions('admin', open, locked)).toEqual({ view: true, edit: true, comment: true, review: true, merge: false });
    expect(changeRequestPermissions('review', open, live)).toEqual({ view: true, edit: true, comment: true, review: true, merge: true });
  });
});

describe('collection policy', () => {
  it('decides by role on the collection', () => {
    expectTable<CollectionAction>(
      {
        view: '. x x x x x x',
        create: '. . . . . x x',
        administer: '. . . . . . x',
      },
      mayCollection,
    );
  });
});

describe('organization policy', () => {
  it('lets any member see it, guests included, and decides the rest by organization role', () => {
    expectTable<OrganizationAction>(
      {
        view: 'x x x x x x x',
        readContent: '. x x x x x x',
        createContent: '. . . . . x x',
        manageSites: '. . . . . x x',
        translate: '. . . . . x x',
        manage: '. . . . . . x',
      },
      (orgRole, action) => mayOrganization({ isMember: true, orgRole }, action),
    );
  });

  it('gives someone outside the organization nothing, whatever role a stale row names', () => {
    for (const action of ['view', 'readContent', 'createContent', 'manage'] as const) {
      expect(mayOrganization({ isMember: false, orgRole: 'admin' }, action), action).toBe(false);
    }
    expect(Object.values(organizationPermissions({ isMember: false, orgRole: null })).some(Boolean)).toBe(false);
  });
});

describe('comment policy', () => {
  it('lets commenters post and edit their own, and admins delete anyone’s', () => {
    const mine = (action: CommentAction) => (role: Role | null) => mayComment(role, action, true);
    const theirs = (action: CommentAction) => (role: Role | null) => mayComment(role, action, false);
    expectTable<'view' | 'comment' | 'editMine' | 'editTheirs' | 'deleteMine' | 'deleteTheirs'>(
      {
        view: '. x x x x x x',
        comment: '. . x x x x x',
        editMine: '. . x x x x x',
        editTheirs: '. . . . . . .',
        deleteMine: '. . x x x x x',
        deleteTheirs: '. . . . . . x',
      },
      (role, action) =>
        ({
          view: theirs('view'),
          comment: theirs('comment'),
          editMine: mine('editBody'),
          editTheirs: theirs('editBody'),
          deleteMine: mine('delete'),
          deleteTheirs: theirs('delete'),
        })[action](role),
    );
  });
});

/** The `permissions` objects the API shows, field by field, for a few callers. */
describe('permissions as shown', () => {
  const none = (keys: string[]) => Object.fromEntries(keys.map((k) => [k, false]));

  it('of a space', () => {
    const keys = [
      'view',
      'access',
      'admin',
      'viewInviteLinks',
      'edit',
      'triggerGitSync',
      'comment',
      'merge',
      'review',
      'installIntegration',
    ];
    expect(spacePermissions(null, live)).toEqual(none(keys));
    expect(spacePermissions('edit', live)).toEqual({
      ...none(keys),
      view: true,
      access: true,
      edit: true,
      triggerGitSync: true,
      comment: true,
    });
    expect(spacePermissions('review', locked)).toEqual({
      ...none(keys),
      view: true,
      access: true,
      triggerGitSync: true,
      comment: true,
      review: true,
    });
    expect(spacePermissions('admin', live)).toEqual(Object.fromEntries(keys.map((k) => [k, true])));
  });

  it('of an organization', () => {
    const keys = [
      'view',
      'access',
      'admin',
      'ownTeam',
      'createContent',
      'createOpenAPISpec',
      'ingestConversations',
      'viewBilling',
      'listMembers',
      'listTeams',
      'listIntegrations',
      'listInstallations',
      'installIntegration',
    ];
    expect(organizationPermissions({ isMember: true, orgRole: null })).toEqual({ ...none(keys), view: true, access: true });
    expect(organizationPermissions({ isMember: true, orgRole: 'read' })).toEqual({
      ...none(keys),
      view: true,
      access: true,
      ownTeam: true,
      listMembers: true,
      listTeams: true,
      listIntegrations: true,
    });
    expect(organizationPermissions({ isMember: true, orgRole: 'create' })).toEqual({
      ...none(keys),
      view: true,
      access: true,
      ownTeam: true,
      createContent: true,
      createOpenAPISpec: true,
      listMembers: true,
      listTeams: true,
      listIntegrations: true,
    });
    expect(organizationPermissions({ isMember: true, orgRole: 'admin' })).toEqual(Object.fromEntries(keys.map((k) => [k, true])));
  });

  it('of a collection', () => {
    expect(collectionPermissions(null)).toEqual({ view: false, admin: false, viewInviteLinks: false, create: false });
    expect(collectionPermissions('read')).toEqual({ view: true, admin: false, viewInviteLinks: false, create: false });
    expect(collectionPermissions('create')).toEqual({ view: true, admin: false, viewInviteLinks: false, create: true });
    expect(collectionPermissions('admin')).toEqual({ view: true, admin: true, viewInviteLinks: true, create: true });
  });

  it('of a comment', () => {
    expect(commentPermissions('read', true)).toEqual({ view: true, edit: false, reply: false, delete: false });
    expect(commentPermissions('comment', true)).toEqual({ view: true, edit: true, reply: true, delete: true });
    expect(commentPermissions('comment', false)).toEqual({ view: true, edit: false, reply: true, delete: false });
    expect(commentPermissions('admin', false)).toEqual({ view: true, edit: false, reply: true, delete: true });
    // Whether a comment is mine is for the caller to say: by default it is not.
    expect(mayComment('comment', 'editBody')).toBe(false);
  });

  it('names the role a refusal asks for', () => {
    expect(organizationRoleFor('manage')).toBe('admin');
    expect(organizationRoleFor('manageSites')).toBe('create');
    expect(commentRoleFor('comment')).toBe('comment');
    expect(commentRoleFor('view')).toBe('read');
  });
});
