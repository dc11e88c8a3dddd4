import { requireAdmin, type Identity } from '../actor.ts';
import { acceptedAs, type CommandHandler } from '../command-handler.ts';
import type { CommandMeta } from '../command.ts';
import { projectionStreamOf, recordRebuild } from './projection.ts';

/** The commands decided on a projection's stream: the records of its rebuilds, for the staff action log. */
export function createOperationsCommands({ handle }: CommandHandler) {
  return {
    /**
     * Records a projection rebuild the runner accepted (POST /api/admin/projections/:name/rebuild
     * after its request, or `forumctl rebuild` with `who` 'operator' and the operator in `meta`). An
     * admin is checked like every admin action; the route checks first too, so that a non-admin starts nothing.
     */
    recordRebuildRequest: (who: Identity | 'operator', build: { projection: string; version: number; build: number; resumed: boolean }, meta: CommandMeta) =>
      handle(who === 'operator' ? { meta } : { who, meta }, {
        stream: projectionStreamOf(build.projection),
        decide: (_, { actor }) => {
          if (actor) requireAdmin(actor);
          return recordRebuild(build, meta);
        },
        answer: acceptedAs(build.projection),
      }),
  };
}
