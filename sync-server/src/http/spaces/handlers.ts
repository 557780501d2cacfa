import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { readSpace } from '../../core/spaceRead';
import { spaceUpdateAction } from '../../core/policies/spaces';
import { type SpaceAfterWrite, changeSpace, deleteSpace, duplicate, moveSpace, restore, transfer } from '../../core/spaceWrites';
import type { AppEnv } from '../env';
import { requireSpace } from '../guards';
import { presentSpace } from '../presenters/space';
import { baseUrl } from '../urls';
import * as r from './routes';
import { cacheable } from '../responseCache';
import { tags } from '../../core/readModel';

/** A space after a write, as the caller now sees it. */
function presentWritten(c: Context<AppEnv>, { space, counts, access }: SpaceAfterWrite) {
  return presentSpace(space, access, baseUrl(c), counts);
}

export function registerSpaces(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.getSpace, async (c) => {
    const { spaceId } = c.req.valid('param');
    const read = await readSpace(c.get('deps').db, c.get('access'), spaceId, c.req.valid('query').shareKey);
    const shown = presentSpace(read.space, read.access, baseUrl(c), read.counts, read.byShareLink);
    if (read.byShareLink) return c.json(shown, 200);
    cacheable(c, [tags.space(read.space.id), tags.access(read.space.org_id)]);
    return c.json(shown, 200);
  });

  app.openapi(r.deleteSpace, async (c) => {
    await deleteSpace(c.get('deps').db, c.get('access'), c.req.valid('param').spaceId);
    return c.body(null, 204);
  });

  app.openapi(r.updateSpace, async (c) => {
    const fields = c.req.valid('json');
    const { space, role } = await requireSpace(c, c.req.valid('param').spaceId, spaceUpdateAction(fields));
    return c.json(presentWritten(c, await changeSpace(c.get('deps').db, c.get('access'), space, role, fields)), 200);
  });

  app.openapi(r.duplicateSpace, async (c) => {
    const { space, access } = await requireSpace(c, c.req.valid('param').spaceId, 'view');
    return c.json(presentWritten(c, await duplicate(c.get('deps').db, c.get('access'), space, access)), 200);
  });

  app.openapi(r.restoreSpace, async (c) => {
    const { space, access } = await requireSpace(c, c.req.valid('param').spaceId, 'administer', { includeDeleted: true });
    return c.json(presentWritten(c, await restore(c.get('deps').db, space, access)), 200);
  });

  app.openapi(r.moveSpace, async (c) => {
    const { space, access } = await requireSpace(c, c.req.valid('param').spaceId, 'administer');
    return c.json(presentWritten(c, await moveSpace(c.get('deps').db, space, access, c.req.valid('json'))), 200);
  });

  app.openapi(r.transferSpace, async (c) => {
    const { space } = await requireSpace(c, c.req.valid('param').spaceId, 'administer');
    const moved = await transfer(c.get('deps').db, c.get('access'), space, c.req.valid('json').organization);
    return c.json(presentWritten(c, moved), 200);
  });
}
