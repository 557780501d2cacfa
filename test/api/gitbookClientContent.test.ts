import {
  ChangeRequestOrderBy,
  ChangeRequestReviewStatus,
  ChangeRequestStatus,
  type Document,
  GitBookAPI,
  type JSONDocument,
  MemberRole,
  OpenAPISpecVisibility,
  TranslationLanguage,
} from '@gitbook/api';
import { newId } from '@quire/shared';
import { addFile, createPage } from '@quire/shared/content/index';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editLive } from '../../sync-server/src/testing/testEdits';
import { TestIdp } from '../../sync-server/src/testing/testIdp';
import { LiveServer } from '../../sync-server/src/testing/syncClients';
import { clientFor, refusal, templatedSpace as newTemplatedSpace } from './clientHarness';

/**
 * Space and change request content, change requests and their reviews, comments, search,
 * OpenAPI specifications, translations and SAML providers, driven through the public client
 * of this API family (`@gitbook/api`): its method names, the query names and bodies it
 * sends, and the answers it declares.
 */

let s: LiveServer;
let api: GitBookAPI;
let reviewer: GitBookAPI;
let orgId: string;
let adminId: string;
let reviewerId: string;

beforeAll(async () => {
  s = await LiveServer.start();
  const fixture = await s.t.org(['review']);
  orgId = fixture.orgId;
  adminId = fixture.admin.id;
  reviewerId = fixture.members[0]!.id;
  api = clientFor(s, fixture.admin.token);
  reviewer = clientFor(s, fixture.members[0]!.token);
});
afterAll(async () => s?.close());

/** A space filled from the built-in template, with its page tree. */
async function templatedSpace(title: string) {
  const space = await newTemplatedSpace(api, orgId, title);
  const { data: tree } = await api.spaces.listPages(space.id);
  const page = (t: string) => tree.pages.find((p) => p.title === t)!;
  return { space, welcome: page('Welcome'), quickstart: page('Quickstart') };
}

/** A one-paragraph document in the public client's JSON document format. */
function paragraph(text: string): JSONDocument {
  return {
    object: 'document',
    data: {},
    nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] }],
  } as JSONDocument;
}

const markdownOf = (body: unknown) => (body as { markdown?: string }).markdown;

describe('space and change request content', () => {
  it('reads the revision, the pages, the files and a page in each format', async () => {
    const { space, welcome } = await templatedSpace('Content');
    const fileId = await editLive(s.db, { spaceId: space.id }, (doc) => {
      createPage(doc, { title: 'Elsewhere', type: 'link', href: 'https://example.com/docs' });
      return addFile(doc, { id: newId(), name: 'logo.png', contentType: 'image/png', size: 3 }).id;
    });

    const { data: revision } = await api.spaces.getCurrentRevision(space.id, { metadata: false, computed: false });
    expect(revision.object).toBe('revision');
    expect(revision.files.map((f) => f.id)).toEqual([fileId]);
    expect(revision.tags).toEqual([]);
    const { data: tree } = await api.spaces.listPages(space.id, { metadata: true, computed: true });
    expect(tree.pages.map((p) => [p.title, p.type, 'kind' in p ? p.kind : undefined])).toEqual([
      ['Welcome', 'document', 'sheet'],
      ['Quickstart', 'document', 'sheet'],
      ['FAQ', 'document', 'sheet'],
      ['Elsewhere', 'link', 'link'],
    ]);
    const link = tree.pages[3]!;
    expect(link.type === 'link' && link.target).toEqual({ kind: 'url', url: 'https://example.com/docs' });

    const { data: files } = await api.spaces.listFiles(space.id, { limit: 10, metadata: false });
    expect(files.items.map((f) => f.name)).toEqual(['logo.png']);
    const { data: file } = await api.spaces.getFileById(space.id, fileId, { computed: false });
    expect(file).toMatchObject({ id: fileId, contentType: 'image/png', size: 3 });

    const { data: stable } = await api.spaces.getPageById(space.id, welcome.id, {
      format: 'markdown',
      'format.markdown.refs': 'stable',
      evaluated: true,
      dereferenced: 'reusable-contents',
      metadata: false,
      computed: true,
    });
    expect(markdownOf(stable)).toMatch(/\[Quickstart\]\(page:[\w-]+\)/);
    const { data: document } = await api.spaces.getPageById(space.id, welcome.id, { format: 'document', evaluated: 'deterministic-only' });
    expect((document as { document?: unknown }).document).toMatchObject({ object: 'document' });
  });

  it('writes references as repository paths with format.markdown.refs=relative', async () => {
    const { space, welcome } = await templatedSpace('Relative links');
    const installId = await editLive(s.db, { spaceId: space.id }, (doc) => {
      const fileId = addFile(doc, { id: newId(), name: 'logo.png', contentType: 'image/png', size: 3 }).id;
      const guides = createPage(doc, { title: 'Guides', markdown: 'All guides.' });
      return createPage(doc, {
        title: 'Install',
        parent: guides,
        markdown: `Back [home](page:${welcome.id}#jump-right-in).\n\n![Logo](file:${fileId})\n`,
      });
    });
    const { data: page } = await api.spaces.getPageById(space.id, welcome.id, { format: 'markdown', 'format.markdown.refs': 'relative' });
    expect(markdownOf(page)).toContain('[Quickstart](quickstart.md)');
    expect(markdownOf(page)).not.toContain('page:');
    const { data: nested } = await api.spaces.getPageById(space.id, installId, { format: 'markdown', 'format.markdown.refs': 'relative' });
    expect(markdownOf(nested)).toContain('[home](../README.md#jump-right-in)');
    expect(markdownOf(nested)).toContain('../.gitbook/assets/logo.png');
    const bad = await refusal(api.spaces.getPageById(space.id, welcome.id, { 'format.markdown.refs': 'sideways' as never }));
    expect(bad.code).toBe(400);
    expect(bad.message).toMatch(/^Invalid query parameter field "format\.markdown\.refs"/);
  });

  it('reads a change request branch the same way', async () => {
    const { space, quickstart } = await templatedSpace('Branch reads');
    const { data: cr } = await api.spaces.createChangeRequest(space.id, { subject: 'Branch' });
    const fileId = await editLive(s.db, { spaceId: space.id, changeRequestId: cr.id }, (doc) => {
      createPage(doc, { title: 'Only on the branch', markdown: 'Draft text.' });
      return addFile(doc, { id: newId(), name: 'diagram.svg', contentType: 'image/svg+xml', size: 10 }).id;
    });
    const { data: revision } = await api.spaces.getRevisionOfChangeRequestById(space.id, cr.id, { metadata: false });
    expect(revision.pages.map((p) => p.title)).toContain('Only on the branch');
    const { data: pages } = await api.spaces.listPagesInChangeRequest(space.id, String(cr.number), { computed: false });
    expect(pages.pages.map((p) => p.title)).toContain('Only on the branch');
    const { data: files } = await api.spaces.listFilesInChangeRequestById(space.id, cr.id, { limit: 5 });
    expect(files.items.map((f) => f.id)).toEqual([fileId]);
    const { data: file } = await api.spaces.getFileInChangeRequestById(space.id, cr.id, fileId);
    expect(file.name).toBe('diagram.svg');
    const { data: page } = await api.spaces.getPageInChangeRequestById(space.id, cr.id, quickstart.id, {
      format: 'markdown',
      'format.markdown.refs': 'relative',
      evaluated: false,
    });
    expect(markdownOf(page)).toContain('## Install');
    // Main does not see the branch.
    const { data: main } = await api.spaces.listFiles(space.id);
    expect(main.items).toEqual([]);
  });
});

describe('search', () => {
  it('finds pages in a space and across the organization, with scores, ranks and ancestors', async () => {
    const { space } = await templatedSpace('Searchable');
    const { data: found } = await api.spaces.searchSpaceContent(space.id, { query: 'install', limit: 5 });
    expect(found.items.length).toBeGreaterThan(0);
    const hit = found.items[0]!;
    expect(hit).toMatchObject({ title: 'Quickstart', description: '', rank: 1, resultType: 'page', ancestors: [] });
    expect(typeof hit.score).toBe('number');
    expect(hit.sections?.[0]).toMatchObject({ resultType: 'section', title: 'Install' });

    const { data: org } = await api.orgs.searchOrganizationContent(orgId, { query: 'install', limit: 50 });
    const mine = org.items.find((x) => x.id === space.id);
    expect(mine).toMatchObject({ type: 'space', title: 'Searchable' });
    expect(typeof mine!.score).toBe('number');
    expect(mine!.pages.map((p) => p.title)).toContain('Quickstart');
  });
});

describe('change requests', () => {
  it('opens a change request from a template, lists, filters, renames and merges it', async () => {
    const { data: space } = await api.orgs.createSpace(orgId, { title: 'Templated branch' });
    const { data: cr } = await api.spaces.createChangeRequest(space.id, { subject: 'Start', template: { id: 'getting-started' } });
    expect(cr).toMatchObject({ object: 'change-request', number: 1, status: 'draft', subject: 'Start' });
    const { data: onBranch } = await api.spaces.listPagesInChangeRequest(space.id, cr.id);
    expect(onBranch.pages.map((p) => p.title)).toEqual(['Welcome', 'Quickstart', 'FAQ']);
    const { data: onMain } = await api.spaces.listPages(space.id);
    expect(onMain.pages).toEqual([]);

    const { data: untitled } = await api.spaces.createChangeRequest(space.id, {});
    expect(untitled.subject).toBe('');

    const { data: renamed } = await api.spaces.updateChangeRequestById(space.id, cr.id, {
      subject: 'Getting started',
      description: paragraph('Adds the first pages.'),
      status: 'open',
    });
    expect(renamed).toMatchObject({ subject: 'Getting started', status: 'open' });
    const { data: byNumber } = await api.spaces.getChangeRequestById(space.id, '1');
    expect(byNumber.id).toBe(cr.id);

    const { data: open } = await api.spaces.listChangeRequestsForSpace(space.id, {
      status: ChangeRequestStatus.Open,
      creator: adminId,
      orderBy: ChangeRequestOrderBy.UpdatedAt,
      limit: 10,
    });
    expect(open.items.map((x) => x.id)).toEqual([cr.id]);

    const { data: pdf } = await api.spaces.getChangeRequestPdf(space.id, cr.id, { only: true, page: onBranch.pages[0]!.id });
    expect(String(pdf.url)).toMatch(/^http/);

    const { data: updated } = await api.spaces.updateChangeRequest(space.id, cr.id);
    expect(updated.result).toBe('update');
    const { data: merged } = await api.spaces.mergeChangeRequest(space.id, cr.id);
    expect(merged.result).toBe('merge');
    const { data: after } = await api.spaces.getChangeRequestById(space.id, cr.id);
    expect(after).toMatchObject({ status: 'merged', revisionMerged: merged.revision, mergedBy: { id: adminId } });
  });

  it('lists the organization change requests with several statuses, as the client sends them', async () => {
    const { data: space } = await api.orgs.createSpace(orgId, { title: 'Statuses' });
    const { data: draft } = await api.spaces.createChangeRequest(space.id, { subject: 'Draft' });
    const { data: open } = await api.spaces.createChangeRequest(space.id, { subject: 'Open' });
    await api.spaces.updateChangeRequestById(space.id, open.id, { status: 'open' });
    const { data: archived } = await api.spaces.createChangeRequest(space.id, { subject: 'Archived' });
    await api.spaces.updateChangeRequestById(space.id, archived.id, { status: 'archived' });

    const { data: both } = await api.orgs.listChangeRequestsForOrganization(orgId, {
      space: space.id,
      status: [ChangeRequestStatus.Draft, ChangeRequestStatus.Open],
    });
    expect(both.items.map((x) => x.id).sort()).toEqual([draft.id, open.id].sort());
    const { data: notFromFindings } = await api.orgs.listChangeRequestsForOrganization(orgId, { space: space.id, finding: 'none' });
    expect(notFromFindings.count).toBe(3);
    const { data: fromFindings } = await api.orgs.listChangeRequestsForOrganization(orgId, { space: space.id, finding: 'all' });
    expect(fromFindings.count).toBe(0);
  });

  it('refuses links to external tickets, which this server does not have, saying so', async () => {
    const { data: space } = await api.orgs.createSpace(orgId, { title: 'No links' });
    const { data: cr } = await api.spaces.createChangeRequest(space.id, { subject: 'x' });
    const refused = await refusal(
      api.spaces.updateChangeRequestById(space.id, cr.id, { links: [{ ref: { kind: 'url', url: 'https://tickets.example/1' } }] }),
    );
    expect(refused).toEqual({
      code: 400,
      message: 'Invalid body field "links": links to external tickets are not supported by this server.',
    });
    const badTemplate = await refusal(api.spaces.createChangeRequest(space.id, { subject: 'y', template: { id: 'nope' } }));
    expect(badTemplate.code).toBe(400);
    expect(badTemplate.message).toMatch(/^Invalid body field "template\.id"/);
    const { data: listed } = await api.spaces.listChangeRequestsForSpace(space.id);
    expect(listed.count).toBe(1);
  });
});

describe('change request reviews', () => {
  it('requests a reviewer, who approves with a comment; the review reads back in both formats', async () => {
    const { space } = await templatedSpace('Reviewed');
    const { data: cr } = await api.spaces.createChangeRequest(space.id, { subject: 'Please review' });
    const { data: requested } = await api.spaces.requestReviewersForChangeRequest(space.id, cr.id, {
      users: [reviewerId],
      subject: 'Please review this',
      description: paragraph('Small change.'),
    });
    expect(requested.users).toMatchObject([
      { object: 'change-request-requested-reviewer', kind: 'user', user: { id: reviewerId }, requestedBy: { id: adminId } },
    ]);
    const { data: renamed } = await api.spaces.getChangeRequestById(space.id, cr.id);
    expect(renamed.subject).toBe('Please review this');
    const { data: reviewers } = await api.spaces.getRequestedReviewersByChangeRequestId(space.id, cr.id, { limit: 10 });
    expect(reviewers.items[0]).toMatchObject({ kind: 'user', revision: renamed.revision });

    const { data: review } = await reviewer.spaces.submitChangeRequestReview(space.id, cr.id, {
      status: ChangeRequestReviewStatus.Approved,
      comment: { markdown: 'Looks **good**' } as Document,
    });
    expect(review).toMatchObject({
      object: 'change-request-review',
      status: 'approved',
      reviewer: { id: reviewerId },
      requestedBy: { id: adminId },
      outdated: false,
      comment: { object: 'comment', body: { markdown: 'Looks **good**' }, target: { changeRequest: cr.id, review: review.id } },
    });
    expect(review.updatedAt).toBe(review.createdAt);

    const { data: one } = await api.spaces.getChangeRequestReviewById(space.id, cr.id, review.id, { format: 'document' });
    expect((one.comment?.body as { document?: unknown }).document).toMatchObject({ object: 'document' });
    const { data: current } = await api.spaces.getReviewsByChangeRequestId(space.id, cr.id, { outdated: false, format: 'markdown' });
    expect(current.items.map((x) => x.id)).toEqual([review.id]);
    const { data: stale } = await api.spaces.getReviewsByChangeRequestId(space.id, cr.id, { outdated: true });
    expect(stale.items).toEqual([]);

    // A JSON document is a comment body too.
    const { data: second } = await reviewer.spaces.submitChangeRequestReview(space.id, cr.id, {
      status: ChangeRequestReviewStatus.ChangesRequested,
      comment: { document: paragraph('One more thing.') },
    });
    expect(markdownOf(second.comment?.body)).toBe('One more thing.');
    // So is a bare document, as earlier clients sent it.
    const { data: third } = await reviewer.spaces.submitChangeRequestReview(space.id, cr.id, {
      status: ChangeRequestReviewStatus.Approved,
      comment: paragraph('Fine now.'),
    });
    expect(markdownOf(third.comment?.body)).toBe('Fine now.');
    const blank = await refusal(
      reviewer.spaces.submitChangeRequestReview(space.id, cr.id, {
        status: ChangeRequestReviewStatus.Approved,
        comment: { markdown: ' ' },
      }),
    );
    expect(blank.code).toBe(400);
    expect(blank.message).toBe('Invalid body field "comment.markdown": must not be blank.');

    const missing = await refusal(api.spaces.getChangeRequestReviewById(space.id, cr.id, 'AAAAAAAAAAAAAAAAAAAAAA'));
    expect(missing.code).toBe(404);

    await api.spaces.removeRequestedReviewerFromChangeRequest(space.id, cr.id, reviewerId);
    const { data: none } = await api.spaces.getRequestedReviewersByChangeRequestId(space.id, cr.id);
    expect(none.count).toBe(0);
  });
});

/** The comment operations, the same on a space and on a change request. */
function commentSuite(
  what: string,
  setup: () => Promise<{
    pageId: string;
    list: (q?: Parameters<GitBookAPI['spaces']['listCommentsInSpace']>[1]) => ReturnType<GitBookAPI['spaces']['listCommentsInSpace']>;
    post: (b: Parameters<GitBookAPI['spaces']['postCommentInSpace']>[1]) => ReturnType<GitBookAPI['spaces']['postCommentInSpace']>;
    get: (id: string, format?: 'markdown' | 'document') => ReturnType<GitBookAPI['spaces']['getCommentInSpace']>;
    update: (
      id: string,
      b: Parameters<GitBookAPI['spaces']['updateCommentInSpace']>[2],
    ) => ReturnType<GitBookAPI['spaces']['updateCommentInSpace']>;
    remove: (id: string) => Promise<unknown>;
    replies: (id: string) => ReturnType<GitBookAPI['spaces']['listCommentRepliesInSpace']>;
    reply: (
      id: string,
      b: Parameters<GitBookAPI['spaces']['postCommentReplyInSpace']>[2],
    ) => ReturnType<GitBookAPI['spaces']['postCommentReplyInSpace']>;
    getReply: (id: string, replyId: string) => ReturnType<GitBookAPI['spaces']['getCommentReplyInSpace']>;
    updateReply: (
      id: string,
      replyId: string,
      b: Parameters<GitBookAPI['spaces']['updateCommentReplyInSpace']>[3],
    ) => ReturnType<GitBookAPI['spaces']['updateCommentReplyInSpace']>;
    removeReply: (id: string, replyId: string) => Promise<unknown>;
  }>,
) {
  it(`posts, filters, resolves, reacts to, threads and deletes comments on ${what}`, async () => {
    const ops = await setup();
    const { data: onPage } = await ops.post({ page: ops.pageId, body: { markdown: 'On this page' } });
    expect(onPage).toMatchObject({ object: 'comment', status: 'open', replies: 0, repliers: [], target: { page: { id: ops.pageId } } });
    const { data: general } = await ops.post({ body: { document: paragraph('In general') } });
    expect(markdownOf(general.body)).toBe('In general');

    const { data: byPage } = await ops.list({ targetPage: ops.pageId, authors: [adminId], status: 'all', order: 'asc', limit: 10 });
    expect(byPage.items.map((c) => c.id)).toEqual([onPage.id]);
    const { data: asDocument } = await ops.get(onPage.id, 'document');
    expect((asDocument.body as { document?: unknown }).document).toMatchObject({ object: 'document' });

    const { data: resolved } = await ops.update(onPage.id, { resolved: true, addedReactions: ['👍'] });
    expect(resolved).toMatchObject({ status: 'resolved', resolvedBy: { id: adminId }, reactions: [{ emoji: '👍', count: 1 }] });
    const { data: open } = await ops.list({ status: 'open' });
    expect(open.items.map((c) => c.id)).toEqual([general.id]);

    const { data: reply } = await ops.reply(general.id, { body: { markdown: 'Agreed' } });
    expect(reply.object).toBe('comment-reply');
    const { data: edited } = await ops.updateReply(general.id, reply.id, { body: { markdown: 'Agreed, edited' }, addedReactions: ['🎉'] });
    expect(markdownOf(edited.body)).toBe('Agreed, edited');
    expect((await ops.getReply(general.id, reply.id)).data.id).toBe(reply.id);
    expect((await ops.replies(general.id)).data.items.map((r) => r.id)).toEqual([reply.id]);
    const { data: threaded } = await ops.get(general.id);
    expect(threaded).toMatchObject({ replies: 1, repliers: [{ user: { id: adminId }, count: 1 }] });

    await ops.removeReply(general.id, reply.id);
    expect((await ops.replies(general.id)).data.count).toBe(0);
    await ops.remove(onPage.id);
    expect((await ops.list()).data.items.map((c) => c.id)).toEqual([general.id]);
    expect((await refusal(ops.get(onPage.id))).code).toBe(404);
  });
}

describe('comments', () => {
  commentSuite('a space', async () => {
    const { space, welcome } = await templatedSpace('Discussed');
    const S = api.spaces;
    const id = space.id;
    return {
      pageId: welcome.id,
      list: (q) => S.listCommentsInSpace(id, q),
      post: (b) => S.postCommentInSpace(id, b),
      get: (c, format) => S.getCommentInSpace(id, c, { format }),
      update: (c, b) => S.updateCommentInSpace(id, c, b),
      remove: (c) => S.deleteCommentInSpace(id, c),
      replies: (c) => S.listCommentRepliesInSpace(id, c, { limit: 10, format: 'markdown' }),
      reply: (c, b) => S.postCommentReplyInSpace(id, c, b),
      getReply: (c, r) => S.getCommentReplyInSpace(id, c, r, { format: 'markdown' }),
      updateReply: (c, r, b) => S.updateCommentReplyInSpace(id, c, r, b),
      removeReply: (c, r) => S.deleteCommentReplyInSpace(id, c, r),
    };
  });

  commentSuite('a change request', async () => {
    const { space, welcome } = await templatedSpace('Discussed branch');
    const { data: cr } = await api.spaces.createChangeRequest(space.id, { subject: 'Talk' });
    const S = api.spaces;
    const id = space.id;
    return {
      pageId: welcome.id,
      list: (q) => S.listCommentsInChangeRequest(id, cr.id, q),
      post: (b) => S.postCommentInChangeRequest(id, cr.id, b),
      get: (c, format) => S.getCommentInChangeRequest(id, cr.id, c, { format }),
      update: (c, b) => S.updateCommentInChangeRequest(id, cr.id, c, b),
      remove: (c) => S.deleteCommentInChangeRequest(id, cr.id, c),
      replies: (c) => S.listCommentRepliesInChangeRequest(id, cr.id, c, { limit: 10, format: 'markdown' }),
      reply: (c, b) => S.postCommentReplyInChangeRequest(id, cr.id, c, b, { format: 'markdown' }),
      getReply: (c, r) => S.getCommentReplyInChangeRequest(id, cr.id, c, r, { format: 'markdown' }),
      updateReply: (c, r, b) => S.updateCommentReplyInChangeRequest(id, cr.id, c, r, b),
      removeReply: (c, r) => S.deleteCommentReplyInChangeRequest(id, cr.id, c, r),
    };
  });
});

const PETSTORE = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'Petstore', version: '1.0.0' },
  paths: { '/pets': { get: { summary: 'List pets', responses: { '200': { description: 'OK' } } } } },
});

describe('OpenAPI specifications', () => {
  it('creates, lists, reads, replaces, publishes and deletes a specification', async () => {
    const { data: created } = await api.orgs.createOpenApiSpec(orgId, { slug: 'petstore', source: { text: PETSTORE } });
    expect(created).toMatchObject({ object: 'openapi-spec', slug: 'petstore', lastProcessedErrorCount: 0 });
    const { data: listed } = await api.orgs.listOpenApiSpecs(orgId, { limit: 10 });
    expect(listed.items.map((x) => x.slug)).toContain('petstore');
    const { data: got } = await api.orgs.getOpenApiSpecBySlug(orgId, 'petstore');
    expect(got.id).toBe(created.id);
    const { data: replaced } = await api.orgs.createOrUpdateOpenApiSpecBySlug(orgId, 'petstore', { source: { text: PETSTORE } });
    expect(replaced.id).toBe(created.id);
    const { data: published } = await api.orgs.updateOpenApiSpecBySlug(orgId, 'petstore', { visibility: OpenAPISpecVisibility.Public });
    expect(published.visibility).toBe('public');
    expect(published.urls.published).toBeTruthy();
    await api.orgs.deleteOpenApiSpecBySlug(orgId, 'petstore');
    expect((await refusal(api.orgs.getOpenApiSpecBySlug(orgId, 'petstore'))).code).toBe(404);
  });
});

describe('translations', () => {
  it('creates, lists, reads, updates, runs and deletes a translation', async () => {
    const { space } = await templatedSpace('To translate');
    const { data: created } = await api.orgs.createTranslation(orgId, {
      source: { space: space.id, language: TranslationLanguage.En },
      language: TranslationLanguage.Fr,
    });
    expect(created).toMatchObject({ object: 'translation', language: 'fr', source: { space: space.id, language: 'en' } });
    expect(created.instructions).toEqual({ object: 'document', data: {}, nodes: [] });
    const { data: listed } = await api.orgs.listTranslations(orgId, { limit: 10 });
    expect(listed.items.map((x) => x.id)).toContain(created.id);
    const { data: updated } = await api.orgs.updateTranslation(orgId, created.id, { instructions: paragraph('Keep product names.') });
    expect(updated.instructions.nodes).toHaveLength(1);
    expect((await api.orgs.getTranslation(orgId, created.id)).data.instructions).toEqual(updated.instructions);
    const run = await api.orgs.runTranslation(orgId, created.id);
    expect(run.status).toBe(204);
    await api.orgs.deleteTranslation(orgId, created.id);
    expect((await refusal(api.orgs.getTranslation(orgId, created.id))).code).toBe(404);
  });
});

describe('SAML providers', () => {
  it('adds a provider by its label, completes it later, lists, reads and removes it', async () => {
    const idp = new TestIdp();
    const { data: pending } = await api.orgs.createOrganizationSamlProvider(orgId, { label: 'Okta', defaultRole: MemberRole.Read });
    expect(pending).toMatchObject({ object: 'saml-provider', label: 'Okta', status: 'pending', defaultRole: 'read' });
    expect((await api.orgs.listSsoProviderLoginsInOrganization(orgId)).data.items).toEqual([]);

    const { data: active } = await api.orgs.updateOrganizationSamlProvider(orgId, pending.id, {
      entityID: idp.entityId,
      certificate: idp.certificate,
      ssoURL: 'https://idp.example.test/sso',
    });
    expect(active).toMatchObject({ status: 'active', entityID: idp.entityId, ssoURL: 'https://idp.example.test/sso' });
    const { data: sso } = await api.orgs.listSsoProviderLoginsInOrganization(orgId);
    expect(sso.items).toEqual([{ id: pending.id, label: 'Okta', startURL: active.service.startURL }]);
    const { data: listed } = await api.orgs.listSamlProvidersInOrganizationById(orgId, { limit: 10 });
    expect(listed.items.map((p) => p.id)).toEqual([pending.id]);
    expect((await api.orgs.getOrganizationSamlProviderById(orgId, pending.id)).data.status).toBe('active');

    await api.orgs.deleteOrganizationSamlProvider(orgId, pending.id);
    expect((await refusal(api.orgs.getOrganizationSamlProviderById(orgId, pending.id))).code).toBe(404);
  });
});
