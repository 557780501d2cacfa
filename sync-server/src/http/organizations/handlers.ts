import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { ListQuery } from '@quire/shared/schemas/common';
import { collectionsOf, createCollectionIn } from '../../core/collections';
import { agentInstructionsOf, replaceAgentInstructions } from '../../core/organizations/agentInstructions';
import {
  inviteMembers,
  joinOrganization,
  organizationsOf,
  organizationsOfOwnDomain,
  pingOrganization,
  withdrawLinkInvite,
} from '../../core/organizations/membership';
import { createOrganization, updateOrganization } from '../../core/organizations/settings';
import { tags } from '../../core/readModel';
import { createSpaceIn } from '../../core/spaceCreate';
import { listVisibleSpaces } from '../../core/spaceLists';
import { visibleSpaceIds } from '../../core/visibleSpaces';
import type { AppEnv } from '../env';
import { requireOrg } from '../guards';
import { envelope, presentCollectionList, presentSpaceList } from '../listing';
import { presentCollection } from '../presenters/collection';
import { iso } from '../presenters/iso';
import { presentOrg } from '../presenters/organization';
import { presentSpace } from '../presenters/space';
import { cacheable } from '../responseCache';
import { baseUrl } from '../urls';
import * as r from './routes';

const EMPTY_DOCUMENT = { object: 'document' as const, data: { schemaVersion: 1 }, nodes: [] };

export function registerOrganizations(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.listOrganizations, async (c) => c.json(await organizationList(c, c.req.valid('query')), 200));

  app.openapi(r.createOrganization, async (c) => {
    const org = await createOrganization(c.get('deps'), c.get('caller').user.id, c.req.valid('json'), c.req.valid('query'));
    return c.json(presentOrg(org, await c.get('access').org(org.id), baseUrl(c)), 201);
  });

  app.openapi(r.getOrganization, async (c) => {
    const { org, access } = await requireOrg(c, c.req.valid('param').organizationId);
    cacheable(c, [tags.org(org.id), tags.access(org.id)]);
    return c.json(presentOrg(org, access, baseUrl(c)), 200);
  });

  app.openapi(r.updateOrganization, async (c) => {
    const { org, access } = await requireOrg(c, c.req.valid('param').organizationId, 'manage');
    const updated = await updateOrganization(c.get('deps'), org, c.req.valid('json'));
    return c.json(presentOrg(updated, access, baseUrl(c)), 200);
  });

  app.openapi(r.deleteLinkInvite, async (c) => {
    const { organizationId, inviteId } = c.req.valid('param');
    await requireOrg(c, organizationId, 'manage');
    await withdrawLinkInvite(c.get('deps').db, organizationId, inviteId);
    return c.body(null, 204);
  });

  app.openapi(r.joinOrganization, async (c) => {
    await joinOrganization(c.get('deps').db, c.get('caller'), c.req.valid('param').organizationId);
    return c.body(null, 204);
  });

  app.openapi(r.inviteMembers, async (c) => {
    const { org } = await requireOrg(c, c.req.valid('param').organizationId, 'manage');
    const ids = await inviteMembers(c.get('deps').db, org, c.req.valid('json'));
    return c.json({ users: ids, invited: ids.length }, 200);
  });

  app.openapi(r.getAgentInstructions, async (c) => {
    const { org, access } = await requireOrg(c, c.req.valid('param').organizationId);
    const row = await agentInstructionsOf(c.get('deps').db, org.id);
    const base = baseUrl(c);
    return c.json(
      {
        object: 'agent-instructions' as const,
        instructions: (row?.instructions as typeof EMPTY_DOCUMENT) ?? EMPTY_DOCUMENT,
        ...(row ? { updatedAt: iso(row.updated_at), ...(row.updated_by ? { updatedBy: row.updated_by } : {}) } : {}),
        urls: { location: `${base}/v1/orgs/${org.id}/agent-instructions` },
        permissions: { view: true, edit: access.isAdmin },
      },
      200,
    );
  });

  app.openapi(r.putAgentInstructions, async (c) => {
    const { org } = await requireOrg(c, c.req.valid('param').organizationId, 'manage');
    const { instructions } = c.req.valid('json');
    const row = await replaceAgentInstructions(c.get('deps').db, org.id, instructions, c.get('caller').user.id);
    return c.json(
      {
        object: 'agent-instructions' as const,
        instructions,
        updatedAt: iso(row.updated_at),
        updatedBy: row.updated_by ?? undefined,
        urls: { location: `${baseUrl(c)}/v1/orgs/${org.id}/agent-instructions` },
        permissions: { view: true, edit: true },
      },
      200,
    );
  });

  app.openapi(r.listOrgsByEmailDomain, async (c) => {
    const found = await organizationsOfOwnDomain(c.get('deps').db, c.get('caller'), c.req.valid('param').emailDomain);
    const base = baseUrl(c);
    return c.json({ organizations: found.map(({ org, access }) => presentOrg(org, access, base)) }, 200);
  });

  app.openapi(r.pingOrganization, async (c) => {
    const { org } = await requireOrg(c, c.req.valid('param').organizationId);
    const platformVisitorClaims = await pingOrganization(c.get('deps').db, c.get('caller'), org, baseUrl(c));
    // The public client reads the claims under its own brand's name; both carry the same token.
    return c.json({ platformVisitorClaims, gitbookVisitorClaims: platformVisitorClaims }, 200);
  });

  app.openapi(r.listOrgSpaces, async (c) => c.json(await orgSpaceList(c, c.req.valid('param').organizationId, c.req.valid('query')), 200));

  app.openapi(r.createOrgSpace, async (c) => {
    const { org, access } = await requireOrg(c, c.req.valid('param').organizationId);
    const { space, counts } = await createSpaceIn(c.get('deps').db, org, access, c.get('caller').user.id, c.req.valid('json'));
    return c.json(presentSpace(space, access, baseUrl(c), counts), 201);
  });

  app.openapi(r.listOrgCollections, async (c) => {
    const { org, access } = await requireOrg(c, c.req.valid('param').organizationId);
    const q = c.req.valid('query');
    const page = await collectionsOf(c.get('deps').db, org, access, q.nested ?? true, q);
    return c.json(presentCollectionList(c, page, access), 200);
  });

  app.openapi(r.createOrgCollection, async (c) => {
    const { org, access } = await requireOrg(c, c.req.valid('param').organizationId);
    const created = await createCollectionIn(c.get('deps').db, c.get('access'), org, access, c.req.valid('json'));
    return c.json(presentCollection(created.collection, created.access, baseUrl(c)), 200);
  });
}

/** The organizations of the caller (`GET /v1/orgs`). */
export async function organizationList(c: Context<AppEnv>, query: ListQuery) {
  const { page, items } = await organizationsOf(c.get('deps').db, c.get('caller'), c.get('access'), query);
  const base = baseUrl(c);
  return envelope({ ...page, rows: items }, ({ org, access }) => presentOrg(org, access, base));
}

/** The spaces of an organization the caller may see (`GET /v1/orgs/{id}/spaces`). */
export async function orgSpaceList(c: Context<AppEnv>, organizationId: string, query: ListQuery) {
  const { org, access } = await requireOrg(c, organizationId);
  return presentSpaceList(c, await listVisibleSpaces(c.get('deps').db, access, { orgId: org.id }, query), access);
}

/** Spaces a guest can see: those granted to them directly or through a collection. */
export async function guestVisibleSpaceIds(c: Context<AppEnv>, orgId: string): Promise<string[]> {
  const access = await c.get('access').org(orgId);
  return visibleSpaceIds(c.get('deps').db, access, { orgId });
}
