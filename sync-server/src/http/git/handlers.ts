import type { OpenAPIHono } from '@hono/zod-openapi';
import { exportToGit, importFromGit } from '../../core/git/commands';
import { gitInfo } from '../../core/git/queries';
import type { AppEnv } from '../env';
import { commandContext } from '../../web/commandContext';
import * as r from './routes';

export function registerGit(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.importGitRepository, async (c) => {
    await importFromGit(commandContext(c), { ...c.req.valid('json'), spaceId: c.req.valid('param').spaceId });
    return c.body(null, 204);
  });

  app.openapi(r.exportToGitRepository, async (c) => {
    await exportToGit(commandContext(c), { ...c.req.valid('json'), spaceId: c.req.valid('param').spaceId });
    return c.body(null, 204);
  });

  app.openapi(r.getSpaceGitInfo, async (c) => c.json(await gitInfo(commandContext(c), c.req.valid('param')), 200));
}
