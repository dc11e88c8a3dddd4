import type { RebuildStarted } from '@forum/contracts';
import type { Knex } from '@forum/platform';
import { buildSchema, requestRebuild } from './checkpoints.ts';
import type { Projection } from './projection.ts';
import { projectionStatus } from './status.ts';

/**
 * The admin API's rebuild call (the command side's ProjectionControl port, met structurally): requests
 * go into projections.checkpoints; whichever projection runner is up picks the build up. Null when no
 * projection has that name; a rebuild under way is answered (resumed) rather than started twice.
 */
export function createProjectionControl(db: Knex, projections: readonly Projection[]) {
  return {
    async requestRebuild(name: string, requestedBy: string): Promise<Omit<RebuildStarted, 'success'> | null> {
      const projection = projections.find((p) => p.name === name);
      if (!projection) return null;
      const { build, resumed } = await requestRebuild(db, projection, requestedBy);
      const status = (await projectionStatus(db)).find((s) => s.schema === buildSchema(build));
      if (!status) throw new Error(`the build ${buildSchema(build)} was switched or retired while it was being requested`);
      return { resumed, projection: status };
    },
  };
}
