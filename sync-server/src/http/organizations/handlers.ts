import type { OpenAPIHono } from '@hono/zod-openapi';
import { createCollection } from '../../core/collections/commands';
import { listOrganizationCollections } from '../../core/collections/queries';
import * as members from '../../core/members/commands';
import * as commands from '../../core/organizations/commands';
import * as queries from '../../core/organizations/queries';
import { tags } from '../../core/readModel/readModel';
import { createSpace } from '../../core/spaces/commands';
import { listOrganizationSpaces } from '../../core/spaces/queries';
import type { AppEnv } from '../env';
import { cacheable } from '../responseCache';
import { commandContext } from '../../web/commandContext';
import * as r from './routes';

export function registerOrganizations(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.listOrganizations, async (c) => c.json(await queries.listOrganizations(commandContext(c), c.req.valid('query')), 200));

  app.openapi(r.createOrganization, async (c) =>
    c.json(await commands.createOrganization(commandContext(c), { fields: c.req.valid('json'), options: c.req.valid('query') }), 201),
  );

  app.openapi(r.getOrganization, async (c) => {
    const { organizationId } = c.req.valid('param');
    const org = await queries.getOrganization(commandContext(c), { organizationId });
    cacheable(c, [tags.org(organizationId), tags.access(organizationId)]);
    return c.json(org, 200);
  });

  app.openapi(r.updateOrganization, async (c) =>
    c.json(await commands.updateOrganization(commandContext(c), { ...c.req.valid('param'), changes: c.req.valid('json') }), 200),
  );

  app.openapi(r.deleteLinkInvite, async (c) => {
    await members.deleteLinkInvite(commandContext(c), c.req.valid('param'));
    return c.body(null, 204);
  });

  app.openapi(r.joinOrganization, async (c) => {
    await members.joinOrganization(commandContext(c), c.req.valid('param'));
    return c.body(null, 204);
  });

  app.openapi(r.inviteMembers, async (c) =>
    c.json(await members.inviteMembers(commandContext(c), { ...c.req.valid('param'), invitation: c.req.valid('json') }), 200),
  );

  app.openapi(r.getAgentInstructions, async (c) =>
    c.json(await queries.getAgentInstructions(commandContext(c), c.req.valid('param')), 200),
  );

  app.openapi(r.putAgentInstructions, async (c) =>
    c.json(
      await commands.putAgentInstructions(commandContext(c), { ...c.req.valid('param'), instructions: c.req.valid('json').instructions }),
      200,
    ),
  );

  app.openapi(r.listOrgsByEmailDomain, async (c) =>
    c.json(await queries.listOrganizationsByEmailDomain(commandContext(c), c.req.valid('param')), 200),
  );

  app.openapi(r.pingOrganization, async (c) => c.json(await commands.pingOrganization(commandContext(c), c.req.valid('param')), 200));

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
