import { positionToken, type HistoryKind, type StateAt } from '@forum/contracts';
import type { EventStore } from '@forum/eventstore';
import type { Knex } from '@forum/platform';
import { allProjections } from '@forum/projections';
import { buildSnapshot, dropSnapshot, listSnapshots, snapshotSchema, SnapshotError } from '@forum/projections/snapshot';
import type pg from 'pg';
import type { CliIo } from './cli-io.ts';
import { table } from './text-table.ts';
import { entityTimeline, stepAsOf } from '../entity-timelines.ts';
import { MomentError, resolveMoment } from './time-travel.ts';

/** Runs a time-travel command's work; its refusals (a bad moment, an unknown snapshot) are messages and exit code 1. */
async function refusing(io: CliIo, work: () => Promise<number>): Promise<number> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof MomentError || error instanceof SnapshotError)) throw error;
    io.err(`${error.message}\n`);
    return 1;
  }
}

/** `forumctl asof <time|position> --post <id> | --user <id>`: the entity's state as of then, folded from its stream. */
export function asof(io: CliIo, client: pg.Client, store: EventStore, whose: { kind: HistoryKind; id: string }, moment: string, json: boolean) {
  return refusing(io, async () => {
    const { position, at } = await resolveMoment(client, moment, new Date());
    const timeline = await entityTimeline(store, whose.kind, whose.id);
    if (timeline.steps.length === 0) {
      io.err(`No ${whose.kind} with the id ${whose.id}\n`);
      return 1;
    }
    const step = stepAsOf(timeline, position);
    const answer: StateAt = {
      kind: whose.kind,
      id: whose.id,
      at: positionToken(position),
      position: step && positionToken(step.position),
      state: step ? step.state : timeline.initial,
    };
    if (json) io.out(JSON.stringify(answer, null, 2) + '\n');
    else {
      io.out(`${whose.kind} ${whose.id} as of ${answer.at} (${at.toISOString()}):\n`);
      io.out(
        step
          ? `after event #${step.version} of its stream, ${step.type} at ${answer.position} (${step.at.toISOString()})\n`
          : `it had no event yet (its first is at ${positionToken(timeline.steps[0]!.position)})\n`,
      );
      io.out(JSON.stringify(answer.state, null, 2) + '\n');
    }
    return 0;
  });
}

/** `forumctl snapshot <time|position> [--name N]`, `--list [--json]`, `--drop <name>`. */
export function snapshot(
  io: CliIo,
  context: { client: pg.Client; db: Knex; store: EventStore; connectionString: string; operator: string },
  request: { moment?: string; name?: string; list: boolean; drop?: string; json: boolean },
) {
  const { db } = context;
  return refusing(io, async () => {
    if (request.list) {
      const snapshots = await listSnapshots(db);
      if (request.json) io.out(JSON.stringify(snapshots, null, 2) + '\n');
      else if (snapshots.length === 0) io.out('No snapshots: forumctl snapshot <time|position> takes one\n');
      else
        io.out(
          table(
            ['name', 'position', 'time', 'state', 'progress', 'size', 'erased since', 'schema'],
            snapshots.map((s) => [
              s.name,
              s.position,
              s.at,
              s.state,
              s.state === 'building' ? `${s.built}/${s.total} (${s.current} ${s.percent}%)` : `${s.built}/${s.total}`,
              megabytes(s.bytes),
              String(s.erasedSince),
              s.schema,
            ]),
          ),
        );
      return 0;
    }
    if (request.drop !== undefined) {
      await dropSnapshot(db, request.drop);
      io.out(`dropped snapshot ${request.drop}\n`);
      return 0;
    }
    if (!request.moment) {
      io.err('snapshot needs a time or a position, --list or --drop <name>\n');
      return 2;
    }
    const { position, at } = await resolveMoment(context.client, request.moment, new Date());
    const name = request.name ?? `p${position.globalPosition}`;
    const started = performance.now();
    let reported = -1;
    await buildSnapshot({
      db,
      connectionString: context.connectionString,
      store: context.store,
      projections: allProjections,
      name,
      position,
      at,
      requestedBy: context.operator,
      onProgress: ({ built, total, current }) => {
        if (built === reported) return;
        reported = built;
        io.err(current ? `${built}/${total} read models built, building ${current}\n` : `${built}/${total} read models built\n`);
      },
    });
    const size = (await listSnapshots(db)).find((s) => s.name === name)?.bytes ?? 0;
    io.out(
      `snapshot ${name}: every read model as of ${positionToken(position)} (${at.toISOString()}), in ${((performance.now() - started) / 1000).toFixed(1)} s, ` +
        `${megabytes(size)}; read-only, query it in the schema ${snapshotSchema(name)} (e.g. SELECT * FROM ${snapshotSchema(name)}.posts)\n`,
    );
    return 0;
  });
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
