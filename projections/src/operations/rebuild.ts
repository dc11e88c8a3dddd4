import type { EventStore } from '@forum/eventstore';
import type { Knex, Logger } from '@forum/platform';
import cliProgress from 'cli-progress';
import { buildLabel, notifyRunners, readCheckpoints, requestRebuild, type BuildKey, type CheckpointRow, type RebuildRequest } from '../runner/checkpoints.ts';
import type { Projection } from '../runner/projection.ts';
import { createProjectionRunner } from '../runner/runner.ts';

export interface RebuildProgress {
  build: BuildKey;
  /** Global position the build has applied up to, and the log's head. */
  position: number;
  head: number;
  eventsPerSecond: number;
  state: 'building' | 'live' | 'halted' | 'gone';
  error: string | null;
}

export interface RebuildOptions {
  db: Knex;
  connectionString: string;
  store: EventStore;
  projections: readonly Projection[];
  requestedBy: string;
  logger: Logger;
  /** Called about twice a second with each build's progress. */
  onProgress?: (progress: RebuildProgress[]) => void;
  /** Resolves when the caller wants to stop (Ctrl-C): the builds stay where they are and resume next time. */
  interrupted?: Promise<void>;
  buildBatchSize?: number;
  /** Called with each build once it is requested (forumctl records the request in the event log). */
  onRequested?: (request: RebuildRequest) => Promise<void>;
}

export type RebuildOutcome = { interrupted: boolean; failed: RebuildProgress[]; progress: RebuildProgress[]; seconds: number };

/**
 * Rebuilds projections blue-green and waits until each new build has switched
 * in. The builds run in this process unless another runner (the forum's) has
 * them already, in which case this one stands by and reports their progress.
 */
export async function rebuildProjections(options: RebuildOptions): Promise<RebuildOutcome> {
  const { db, store } = options;
  const runner = createProjectionRunner({
    db,
    connectionString: options.connectionString,
    store,
    logger: options.logger,
    projections: options.projections,
    only: 'building',
    buildBatchSize: options.buildBatchSize,
    standbyRetryMs: 500,
  });
  const started = performance.now();
  const rates = new Map<string, { at: number; position: number; rate: number }>();
  await runner.start();
  // The builds are asked for quietly and taken by this process's runner at once, before other
  // runners hear of them (or poll): one process then replays the log once for all of them
  const requests = [];
  for (const projection of options.projections) {
    const request = await requestRebuild(db, projection, options.requestedBy, { notify: false });
    requests.push(request);
    await options.onRequested?.(request);
  }
  await runner.sync();
  await notifyRunners(db, 'build:requested');
  let interrupted = false;
  void options.interrupted?.then(() => (interrupted = true));
  try {
    for (;;) {
      // one look a tick: the builds' checkpoints and the log's head
      const [rows, head] = await Promise.all([readCheckpoints(db, { retired: true }), store.head()]);
      const progress = requests.map(({ build }) => progressOf(build, rows, Number(head.globalPosition), rates));
      options.onProgress?.(progress);
      const failed = progress.filter((p) => p.state === 'halted' || p.state === 'gone');
      const done = progress.every((p) => p.state !== 'building');
      if (done || interrupted || failed.length > 0)
        return { interrupted: !done && interrupted, failed, progress, seconds: (performance.now() - started) / 1000 };
      // (without `interrupted`, Promise.race would take the missing value as settled and spin)
      await Promise.race([new Promise((resolve) => setTimeout(resolve, 500)), ...(options.interrupted ? [options.interrupted] : [])]);
    }
  } finally {
    await runner.stop();
  }
}

function progressOf(
  build: CheckpointRow,
  rows: readonly CheckpointRow[],
  head: number,
  rates: Map<string, { at: number; position: number; rate: number }>,
): RebuildProgress {
  const row = rows.find((r) => r.name === build.name && r.version === build.version && r.build === build.build);
  const position = Number(row?.position.globalPosition ?? 0n);
  const key = buildLabel(build);
  const now = performance.now();
  const last = rates.get(key);
  // events/s smoothed over the last samples
  const instant = last && now > last.at ? ((position - last.position) * 1000) / (now - last.at) : 0;
  const rate = last ? last.rate * 0.6 + instant * 0.4 : 0;
  rates.set(key, { at: now, position, rate });
  return {
    build: { name: build.name, version: build.version, build: build.build },
    position,
    head,
    eventsPerSecond: Math.round(rate),
    state: !row || row.state === 'retired' ? 'gone' : row.error ? 'halted' : row.state,
    error: row?.error ?? null,
  };
}

/** A progress bar per build on a terminal (events/s and ETA); plain lines every few seconds elsewhere. */
export function progressReporter(write: (text: string) => void, terminal: NodeJS.WriteStream | null) {
  if (terminal?.isTTY) {
    const bars = new cliProgress.MultiBar(
      {
        stream: terminal,
        format: ' {label} |{bar}| {percentage}% | {value}/{total} events | {rate} events/s | ETA {eta_formatted} | {state}',
        hideCursor: true,
        clearOnComplete: false,
        etaBuffer: 20,
      },
      cliProgress.Presets.shades_classic,
    );
    const byBuild = new Map<string, cliProgress.SingleBar>();
    return {
      update(progress: RebuildProgress[]) {
        for (const p of progress) {
          const label = buildLabel(p.build).padEnd(24);
          const payload = { label, rate: p.eventsPerSecond.toLocaleString('en'), state: p.state === 'live' ? 'switched' : p.state };
          const bar = byBuild.get(label) ?? bars.create(Math.max(p.head, 1), 0, payload);
          byBuild.set(label, bar);
          bar.setTotal(Math.max(p.head, 1));
          bar.update(p.state === 'live' ? Math.max(p.head, 1) : p.position, payload);
        }
      },
      stop: () => bars.stop(),
    };
  }
  let lastLine = 0;
  return {
    update(progress: RebuildProgress[]) {
      if (performance.now() - lastLine < 5000 && progress.some((p) => p.state === 'building')) return;
      lastLine = performance.now();
      for (const p of progress) {
        const percent = p.head > 0 ? Math.floor((p.position * 100) / p.head) : 100;
        write(
          `${buildLabel(p.build)}: ${p.state === 'live' ? 'switched' : p.state} ${percent}% (${p.position}/${p.head}) ${p.eventsPerSecond.toLocaleString('en')} events/s\n`,
        );
      }
    },
    stop() {},
  };
}
