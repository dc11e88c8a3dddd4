import { dropBuild } from './build-schema.ts';
import { buildsToRun } from './checkpoints.ts';
import { lockKey } from './lock-session.ts';
import type { Projection } from './projection.ts';
import type { RunnerContext } from './runner-context.ts';
import { Worker } from './worker.ts';

export interface BuildDiscovery {
  /** Starts a worker for every build of our projections that has none yet; resolves when each has tried its lock. */
  readonly sync: () => Promise<void>;
  /** Resolves when the look under way, if any, has ended. */
  settled(): Promise<void>;
}

/** Finds the builds of the runner's projections (new ones, retired ones) and starts or stops their workers. */
export function createBuildDiscovery(context: RunnerContext): BuildDiscovery {
  const { db, logger, workers } = context;
  let syncing: Promise<void> | null = null;
  let syncAgain = false;

  async function syncAll(): Promise<void> {
    if (syncing) {
      syncAgain = true;
      return syncing;
    }
    syncing = (async () => {
      do {
        syncAgain = false;
        await Promise.all(context.projections.map((projection) => syncProjection(projection)));
      } while (syncAgain && !context.stopped);
    })().finally(() => {
      syncing = null;
    });
    return syncing;
  }

  async function syncProjection(projection: Projection): Promise<void> {
    if (context.stopped) return;
    const { builds, retired, superseded } = await buildsToRun(db, projection);
    if (superseded) {
      logger.warn({ projection: projection.name, version: projection.version }, 'a newer version of this projection is live: this code version does nothing');
    }
    for (const old of retired) await dropBuild(db, old, logger);
    // Workers of builds that were retired (switched past) stop now rather than at their next event
    for (const worker of workers.values()) {
      if (worker.projection === projection && !builds.some((b) => lockKey(b) === lockKey(worker.key))) worker.restart();
    }
    const started: Promise<void>[] = [];
    for (const build of builds) {
      if (context.settings.only === 'building' && build.state !== 'building') continue;
      if (workers.has(lockKey(build)) || context.stopped) continue;
      const worker = new Worker(context, projection, build, build.state);
      workers.set(lockKey(build), worker);
      started.push(new Promise<void>((resolve) => worker.run(resolve)));
    }
    await Promise.all(started);
  }

  return {
    sync: syncAll,
    async settled() {
      await syncing?.catch(() => {});
    },
  };
}
