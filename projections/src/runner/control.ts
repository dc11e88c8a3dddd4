import type { RebuildStarted } from '@forum/contracts';
import type { Knex } from '@forum/platform';
import { buildSchema, requestRebuild } from './checkpoints.ts';
import type { Projection } from './projection.ts';
import { projectionStatus } from './status.ts';

/** What the admin API's rebuild call does with the projections (the status list is read on the query side). */
export interface ProjectionControl {
  /** Null when no projection has that name. A rebuild under way is answered (resumed) rather than started twice. */
  requestRebuild(name: string, requestedBy: string): Promise<Omit<RebuildStarted, 'success'> | null>;
}

/** Requests go into projections.checkpoints; whichever projection runner is up picks the build up. */
export function createProjectionControl(db: Knex, projections: readonly Projection[]): ProjectionControl {
  return {
    async requestRebuild(name, requestedBy) {
      const projection = projections.find((p) => p.name === name);
      if (!projection) return null;
      const { build, resumed } = await requestRebuild(db, projection, requestedBy);
      const status = (await projectionStatus(db)).find((s) => s.schema === buildSchema(build));
      if (!status) throw new Error(`the build ${buildSchema(build)} was switched or retired while it was being requested`);
      return { resumed, projection: status };
    },
  };
}
