import { HEADER_EVENT_POSITION, NoBody, ProjectionNameParams, RebuildStarted } from '@forum/contracts';
import { ForbiddenError, NotFoundError, principalOfRequest, UnavailableError } from '@forum/platform';
import type { CommandAppDeps, CommandRoutes } from './deps.ts';
import { accepted, commandMeta, identityOf } from './context.ts';

/**
 * POST /api/admin/projections/:name/rebuild: admins start a blue-green rebuild (202; the runner does
 * the work). The request is then recorded as an event for the staff action log; its position is the
 * answer's X-Event-Position, so the log read after it shows it.
 */
export function operationsRoutes(api: CommandRoutes, { commands, projections, logger, clock }: CommandAppDeps): void {
  api.post(
    '/admin/projections/:name/rebuild',
    {
      schema: {
        answers: accepted(202, RebuildStarted, { keyed: false }),
        errors: ['FORBIDDEN', 'NOT_FOUND', 'CONFLICT'],
        params: ProjectionNameParams,
        body: NoBody,
      },
    },
    async (request, reply) => {
      const principal = principalOfRequest(request);
      const { name } = request.params;
      if (!(await commands.isAdmin(principal.subject))) throw new ForbiddenError('You must be an admin to do this');
      if (!projections) throw new UnavailableError('Projection control is not configured for this service');
      const started = await projections.requestRebuild(name, principal.subject);
      if (!started) throw new NotFoundError(`No projection named ${name}`);
      const { build, version } = started.projection;
      const recorded = await commands.recordRebuildRequest(
        identityOf(principal),
        { projection: name, version, build, resumed: started.resumed },
        commandMeta(request, principal, clock()),
      );
      logger.info({ projection: name, build, resumed: started.resumed, actorId: principal.subject }, 'projection rebuild requested');
      const body: RebuildStarted = { success: true, ...started };
      if (recorded.answer.position) reply.header(HEADER_EVENT_POSITION, recorded.answer.position);
      return reply.code(202).send(body);
    },
  );
}
