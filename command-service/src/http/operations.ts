import { HEADER_EVENT_POSITION, NoBody, ProjectionNameParams, type RebuildStarted } from '@forum/contracts';
import { ForbiddenError, NotFoundError, parseInput, principalOf, requireAuth, UnavailableError } from '@forum/platform';
import { Router } from 'express';
import type { CommandAppDeps } from './app.ts';
import { commandMeta, identityOf } from './context.ts';

/**
 * POST /api/admin/projections/:name/rebuild: admins start a blue-green rebuild (202; the runner does
 * the work). The request is then recorded as an event for the staff action log; its position is the
 * answer's X-Event-Position, so the log read after it shows it.
 */
export function operationsRoutes({ commands, verifyToken, projections, logger, clock }: CommandAppDeps): Router {
  const router = Router();
  router.post('/admin/projections/:name/rebuild', requireAuth(verifyToken), async (req, res) => {
    const principal = principalOf(res);
    const { name } = parseInput(ProjectionNameParams, req.params);
    parseInput(NoBody, req.body);
    if (!(await commands.isAdmin(principal.subject))) throw new ForbiddenError('You must be an admin to do this');
    if (!projections) throw new UnavailableError('Projection control is not configured for this service');
    const started = await projections.requestRebuild(name, principal.subject);
    if (!started) throw new NotFoundError(`No projection named ${name}`);
    const { build, version } = started.projection;
    const recorded = await commands.recordRebuildRequest(identityOf(principal), { projection: name, version, build, resumed: started.resumed }, commandMeta(req, principal, clock()));
    logger.info({ projection: name, build, resumed: started.resumed, actorId: principal.subject }, 'projection rebuild requested');
    const body: RebuildStarted = { success: true, ...started };
    if (recorded.answer.position) res.set(HEADER_EVENT_POSITION, recorded.answer.position);
    res.status(202).json(body);
  });
  return router;
}
