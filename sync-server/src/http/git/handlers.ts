import type { OpenAPIHono } from '@hono/zod-openapi';
import { exportToGit, importFromGit } from '../../core/git/commands';
import { connectGitSync, disconnectGitSync, gitSyncConnection } from '../../core/git/connection';
import { receiveGitHook } from '../../core/git/hooks';
import { gitInfo } from '../../core/git/queries';
import { baseUrl } from '../../web/baseUrl';
import type { AppEnv } from '../env';
import { commandContext, publicContext } from '../../web/commandContext';
import * as r from './routes';
import * as s from './syncRoutes';

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

  app.openapi(s.connectGitSync, async (c) =>
    c.json(await connectGitSync(commandContext(c), { ...c.req.valid('json'), ...c.req.valid('param'), baseUrl: baseUrl(c) }), 200),
  );

  app.openapi(s.getGitSync, async (c) =>
    c.json(await gitSyncConnection(commandContext(c), { ...c.req.valid('param'), baseUrl: baseUrl(c) }), 200),
  );

  app.openapi(s.disconnectGitSync, async (c) => {
    await disconnectGitSync(commandContext(c), c.req.valid('param'));
    return c.body(null, 204);
  });

  app.openapi(s.receiveGitHook, async (c) => {
    await receiveGitHook(publicContext(c), {
      spaceId: c.req.valid('param').spaceId,
      signature: c.req.header('x-hub-signature-256'),
      gitlabToken: c.req.header('x-gitlab-token'),
      secret: c.req.header('x-quire-hook-secret'),
      body: await c.req.text(),
    });
    return c.body(null, 202);
  });
}
