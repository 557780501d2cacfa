import type { OpenAPIHono } from '@hono/zod-openapi';
import { createCollection } from '../../core/collections/commands';
import { listOrganizationCollections } from '../../core/collections/queries';
import { agentInstructionsOf, replaceAgentInstructions } from '../../core/organizations/agentInstructions';
import {
  inviteMembers,
  joinOrganization,
  organizationsOfOwnDomain,
  pingOrganization,
  withdrawLinkInvite,
} from '../../core/organizations/membership';
import { createOrganization, updateOrganization } from '../../core/organizations/settings';
import { listOrganizations } from '../../core/organizations/queries';
import { tags } from '../../core/readModel/readModel';
import { createSpace } from '../../core/spaces/commands';
import { listOrganizationSpaces } from '../../core/spaces/queries';
import type { AppEnv } from '../env';
import { requireOrg } from '../guards';
import { iso } from '../../core/views/iso';
import { presentOrg } from '../../core/views/organization';
import { cacheable } from '../responseCache';
import { baseUrl } from '../urls';
import { commandContext } from '../../web/commandContext';
import * as r from './routes';

const EMPTY_DOCUMENT = { object: 'document' as const, data: { schemaVersion: 1 }, nodes: [] };

export function registerOrganizations(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.listOrganizations, async (c) => c.json(await listOrganizations(commandContext(c), c.req.valid('query')), 200));

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

  app.openapi(r.listOrgSpaces, async (c) =>
    c.json(await listOrganizationSpaces(commandContext(c), { ...c.req.valid('param'), page: c.req.valid('query') }), 200),
  );

  app.openapi(r.createOrgSpace, async (c) =>
    c.json(await createSpace(commandContext(c), { ...c.req.valid('param'), fields: c.req.valid('json') }), 201),
  );

  app.openapi(r.listOrgCollections, async (c) => {
    const { nested, ...page } = c.req.valid('query');
    return c.json(await listOrganizationCollections(commandContext(c), { ...c.req.valid('param'), nested, page }), 200);
  });

  app.openapi(r.createOrgCollection, async (c) =>
    c.json(await createCollection(commandContext(c), { ...c.req.valid('param'), fields: c.req.valid('json') }), 200),
  );
}
