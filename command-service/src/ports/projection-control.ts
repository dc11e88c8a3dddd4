import type { RebuildStarted } from '@forum/contracts';

/**
 * What the admin API's rebuild call needs from the read side. The command side owns this port so that
 * it never imports the projections; the composition passes in an implementation (the projections'
 * `createProjectionControl`). Without one, POST /api/admin/projections/:name/rebuild answers 503.
 */
export interface ProjectionControl {
  /** Null when no projection has that name. A rebuild under way is answered (resumed) rather than started twice. */
  requestRebuild(name: string, requestedBy: string): Promise<Omit<RebuildStarted, 'success'> | null>;
}
