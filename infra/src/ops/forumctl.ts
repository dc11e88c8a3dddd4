import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import os from 'node:os';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { HISTORY_PAGE_SIZE, parsePositionToken, type HistoryEntry, type HistoryKind } from '@forum/contracts';
import { createForumCommands, operatorMeta, streamDirectory, type Accepted, type CommandMeta, type ForumCommands } from '@forum/command-service';
import { prepareStore } from '@forum/identity';
import { createKnex, createLogger, replicasOf, standbyStatus, type Knex, type StandbyStatus } from '@forum/platform';
import pg from 'pg';
import { history, streamHistory, type HistoryReader } from '@forum/eventstore';
import { feedStatus, type FeedStatus } from '@forum/feed';
import { allProjections, buildLabel, migrateCheckpoints, projectionStatus } from '@forum/projections';
import { progressReporter, rebuildProjections } from '@forum/projections/rebuild';
import { verifyProjection, verifyReport } from '@forum/projections/verify';
import { openEventStore, openKurrentDbStore } from '../event-store.ts';
import { exportKurrentDbEvents, importKurrentDbEvents } from './kurrentdb-log-file.ts';
import { exportEvents, importEvents } from './log-file.ts';
import { checkBackup, contentsOf, destroyListedKeys, erasureRows, loadBackup, readErasureList, takeBackup, type ErasureEntry } from './backup.ts';
import type { CliIo } from './cli-io.ts';
import { table } from './text-table.ts';
import { asof, snapshot } from './forumctl-time-travel.ts';

export type { CliIo } from './cli-io.ts';

const USAGE = `forumctl <command>

  status [--json]                        projections: version, build, state, checkpoint, head, lag, error;
                                         the Kafka feed (when one ever ran): checkpoint, head, lag, published,
                                         the relay that holds its lock, its standbys;
                                         and the standbys' lag (on a standby: its own)
  rebuild <projection>... | --all        blue-green rebuild: replays into a new build, switches reads when caught up,
         [--no-verify]                   then compares the new builds with a replay (as verify does) unless --no-verify
  verify [projection...]                 replays into a scratch schema and compares with the live read models
  history --user <email or id> [--json]  what a user did and what was done about them, oldest first
  history --post <id> [--json]           a post with its comments, votes and reports, oldest first
          [--limit N]                    only the first N events
  history <stream-id> [--json]           the events of one stream
  asof <time|position> --post <id>       a post's or a user's state as it was then, folded from its events up to
       | --user <email or id> [--json]   that position (a time: the last event at or before it)
  snapshot <time|position> [--name N]    every read model as of then, into the read-only schema snapshot_<N>
  snapshot --list [--json] | --drop N    the snapshots (position, time, state, progress, size); drop one
  export [--from N] [--to N] [--out F]   events as NDJSON (stdout unless --out)
  import <file>                          load an export into an empty event store
  backup <dir>                           a consistent copy of the log (sealed), the members' keys, the erasures and the
                                         realm's accounts, as files in a new folder with a manifest (docs/operations.md)
  restore <dir> --erasures <file>...     load a backup into an empty database, leaving out the keys and accounts of
          | --no-erasures                every member the erasure lists name; rebuild the read models and verify them
  erasures [--out F]                     the erasure list: every member erased, as NDJSON (keep it apart from the database)
  erasures --apply <file>...             erase again every member a list names whom this database does not know as
                                         erased (after a physical restore or a point-in-time recovery)
  make-admin <email>                     make a registered user an admin (an event; the operator is the actor)
  account disable|enable <user-id>       what an external identity provider's admin did: the forum refuses (or accepts
                                         again) the account's tokens at once (docs/security/erasure.md)
`;

/** Who runs forumctl, as the actor of the commands it gives. */
const operatorName = () => `operator:${os.userInfo().username}`;

/** The metadata of an operator's command: the operator is the actor; one correlation id per command. */
const forumctlMeta = (operator: string) => operatorMeta(operator, 'forumctl', new Date());

/** Gives one command as the operator, on an event store of its own: who the operator is, and the event's position (none: it changed nothing). */
async function asOperator(
  location: { databaseUrl: string; eventStoreUrl?: string | undefined },
  give: (commands: ForumCommands, meta: CommandMeta) => Promise<{ answer: Accepted }>,
) {
  const store = await openEventStore(location, { poolSize: 1 });
  try {
    const operator = operatorName();
    const { answer } = await give(createForumCommands(store, { adminEmails: [] }), forumctlMeta(operator));
    return { operator, position: answer.position };
  } finally {
    await store.close();
  }
}

/**
 * Runs one forumctl command against the database (and the log in KurrentDB at `eventStoreUrl`, when
 * given: EVENTSTORE_URL); answers the process exit code.
 */
export async function runForumctl(argv: string[], databaseUrl: string, io: CliIo, eventStoreUrl?: string): Promise<number> {
  const location = { databaseUrl, eventStoreUrl };
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      user: { type: 'string' },
      post: { type: 'string' },
      limit: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      out: { type: 'string' },
      all: { type: 'boolean', default: false },
      name: { type: 'string' },
      list: { type: 'boolean', default: false },
      drop: { type: 'string' },
      'no-verify': { type: 'boolean', default: false },
      erasures: { type: 'string', multiple: true },
      apply: { type: 'string', multiple: true },
      'no-erasures': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [command, ...rest] = positionals;
  if (!command || values.help) {
    io.out(USAGE);
    return command || values.help ? 0 : 2;
  }
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'forumctl' });
  await client.connect();
  try {
    switch (command) {
      case 'status': {
        const db = createKnex(databaseUrl, { max: 1 });
        try {
          // a standby is read-only: its checkpoints table is the primary's, migrated there
          const standby = await standbyStatus(db);
          if (!standby.standby) await migrateCheckpoints(db);
          const status = await projectionStatus(db);
          const feeds = await feedStatus(client);
          if (values.json) {
            // one list: each row says what it is (a projection build or a feed)
            const rows = [...status.map((s) => ({ kind: 'projection', ...s })), ...(feeds ?? []).map((f) => ({ kind: 'feed', ...f }))];
            io.out(JSON.stringify(rows, null, 2) + '\n');
          } else {
            io.out(
              table(
                ['projection', 'version', 'build', 'state', 'checkpoint', 'head', 'lag', 'error'],
                status.map((s) => [
                  s.name,
                  String(s.version),
                  String(s.build),
                  s.state === 'live' ? 'running' : s.state === 'building' ? 'rebuilding' : 'halted',
                  s.checkpoint,
                  s.head,
                  String(s.lag),
                  s.error ? `${s.error} (at ${s.failedPosition})` : '',
                ]),
              ),
            );
            if (feeds && feeds.length > 0) io.out('\n' + feedTable(feeds));
            io.out(await replicationSummary(db, standby));
          }
          return status.some((s) => s.state === 'halted') ? 1 : 0;
        } finally {
          await db.destroy();
        }
      }
      case 'rebuild': {
        const projections = values.all ? allProjections : pick(rest, io);
        if (!projections || projections.length === 0) {
          if (!values.all && rest.length === 0) io.err(`rebuild needs a projection name or --all (${names()})\n`);
          return 2;
        }
        const db = createKnex(databaseUrl, { max: projections.length + 4 });
        const store = await openEventStore(location, { poolSize: Math.min(projections.length + 2, 10) });
        const reporter = progressReporter(io.err, io.terminal ?? null);
        const operator = operatorName();
        const commands = createForumCommands(store, { adminEmails: [] });
        try {
          await migrateCheckpoints(db);
          const outcome = await rebuildProjections({
            db,
            connectionString: databaseUrl,
            store,
            projections,
            requestedBy: operator,
            // each request is recorded for the staff action log, the operator its actor
            onRequested: async ({ build, resumed }) => {
              await commands.recordRebuildRequest(
                'operator',
                { projection: build.name, version: build.version, build: build.build, resumed },
                forumctlMeta(operator),
              );
            },
            logger: createLogger('forumctl', process.env.LOG_LEVEL || 'silent'),
            onProgress: (progress) => reporter.update(progress),
            interrupted: io.interrupted?.(),
          });
          reporter.stop();
          for (const failed of outcome.failed) {
            io.err(`${buildLabel(failed.build)}: ${failed.state === 'gone' ? 'was replaced by another build' : `halted: ${failed.error}`}\n`);
          }
          if (outcome.failed.length > 0) return 1;
          if (outcome.interrupted) {
            io.err('interrupted: the builds keep their checkpoints. Run the same command again to resume (a running forum resumes them itself).\n');
            return 130;
          }
          const events = Math.max(...outcome.progress.map((p) => p.head));
          io.out(
            `rebuilt ${outcome.progress.map((p) => buildLabel(p.build)).join(', ')}: reads switched to the new builds; ` +
              `${events.toLocaleString('en')} events in ${outcome.seconds.toFixed(1)} s (${Math.round(events / outcome.seconds).toLocaleString('en')} events/s)\n`,
          );
          if (values['no-verify']) return 0;
          // what was switched in is compared with a replay of the log up to its checkpoint
          const differing: string[] = [];
          for (const projection of projections) {
            const result = await verifyProjection(db, store, projection);
            if (!result.ok) differing.push(projection.name);
            (result.ok ? io.out : io.err)(verifyReport(result));
          }
          if (differing.length === 0) return 0;
          io.err(`the rebuilt ${differing.join(', ')} differ from a replay of the log: see above; forumctl rebuild ${differing.join(' ')} builds them again\n`);
          return 1;
        } finally {
          reporter.stop();
          await store.close();
          await db.destroy();
        }
      }
      case 'verify': {
        const projections = rest.length === 0 ? allProjections : pick(rest, io);
        if (!projections) return 2;
        const db = createKnex(databaseUrl, { max: 2 });
        const store = await openEventStore(location, { poolSize: 1 });
        try {
          let ok = true;
          for (const projection of projections) {
            const result = await verifyProjection(db, store, projection);
            ok &&= result.ok;
            (result.ok ? io.out : io.err)(verifyReport(result));
          }
          return ok ? 0 : 1;
        } finally {
          await store.close();
          await db.destroy();
        }
      }
      case 'history': {
        const limit = values.limit === undefined ? Infinity : Number(values.limit);
        if (!(limit >= 1 && (limit === Infinity || Number.isInteger(limit)))) {
          io.err('--limit needs a whole number from 1\n');
          return 2;
        }
        const stream = rest[0];
        // a user's or a post's history, or (null) one stream's
        const whose = stream ? null : values.post ? ({ kind: 'post', id: values.post } as const) : values.user ? await userOf(client, values.user) : undefined;
        if (whose === undefined) {
          io.err(values.user ? `No registered user with the email ${values.user}\n` : 'history needs --user <email or id>, --post <id> or a stream id\n');
          return values.user ? 1 : 2;
        }
        const store = await openEventStore(location, { poolSize: 1 });
        try {
          const title = whose ? `${whose.kind} ${whose.id}` : stream!;
          const events = whose ? await wholeHistory(store, whose.kind, whose.id, limit) : (await streamHistory(store, stream!)).slice(0, limit);
          if (events.length === 0) {
            io.err(`No events in the history of ${title}\n`);
            return 1;
          }
          io.out(values.json ? JSON.stringify(events, null, 2) + '\n' : historyTable(title, events));
          return 0;
        } finally {
          await store.close();
        }
      }
      case 'asof': {
        const whose = values.post ? ({ kind: 'post', id: values.post } as const) : values.user ? await userOf(client, values.user) : undefined;
        if (!rest[0] || whose === undefined) {
          io.err(
            values.user ? `No registered user with the email ${values.user}\n` : 'asof needs a time or a position, and --post <id> or --user <email or id>\n',
          );
          return values.user && rest[0] ? 1 : 2;
        }
        if (eventStoreUrl) {
          io.err('asof reads the log in PostgreSQL: it does not work with EVENTSTORE_URL yet\n');
          return 2;
        }
        const store = await openEventStore(location, { poolSize: 1 });
        try {
          return await asof(io, client, store, whose, rest[0], values.json);
        } finally {
          await store.close();
        }
      }
      case 'snapshot': {
        if (eventStoreUrl) {
          io.err('snapshot reads the log in PostgreSQL: it does not work with EVENTSTORE_URL yet\n');
          return 2;
        }
        const db = createKnex(databaseUrl, { max: 3 });
        const store = await openEventStore(location, { poolSize: 2 });
        try {
          return await snapshot(
            io,
            { client, db, store, connectionString: databaseUrl, operator: operatorName() },
            { moment: rest[0], name: values.name, list: values.list, drop: values.drop, json: values.json },
          );
        } finally {
          await store.close();
          await db.destroy();
        }
      }
      case 'export': {
        const target = values.out ? createWriteStream(values.out) : null;
        const write = (line: string) =>
          target
            ? new Promise<void>((resolve, reject) => (target.write(line) ? resolve() : target.once('drain', resolve).once('error', reject)))
            : void io.out(line);
        const range = { from: values.from ? BigInt(values.from) : undefined, to: values.to ? BigInt(values.to) : undefined };
        let count: number;
        if (eventStoreUrl) {
          const store = await openKurrentDbStore(eventStoreUrl, databaseUrl);
          count = await exportKurrentDbEvents(store, write, range).finally(() => store.close());
        } else count = await exportEvents(client, write, range);
        if (target) await new Promise<void>((resolve, reject) => target.end((error?: Error | null) => (error ? reject(error) : resolve())));
        io.err(`exported ${count} events\n`);
        return 0;
      }
      case 'import': {
        if (!rest[0]) {
          io.err('import needs a file\n');
          return 2;
        }
        const file = rest[0];
        const lines = () => createInterface({ input: createReadStream(file), crlfDelay: Infinity });
        let count: number;
        if (eventStoreUrl) {
          const store = await openKurrentDbStore(eventStoreUrl, databaseUrl);
          count = await importKurrentDbEvents(store, lines).finally(() => store.close());
        } else {
          // the schema exists even in a database nothing has started on yet
          await (await openEventStore(location, { poolSize: 1 })).close();
          count = await importEvents(client, lines);
        }
        io.err(`imported ${count} events; start the forum to project them\n`);
        return 0;
      }
      case 'backup': {
        if (!rest[0]) {
          io.err('backup needs a folder (new, or empty)\n');
          return 2;
        }
        if (eventStoreUrl) {
          io.err('backup reads the log in PostgreSQL: it does not work with EVENTSTORE_URL yet\n');
          return 2;
        }
        const started = performance.now();
        const manifest = await takeBackup(client, rest[0]);
        const bytes = Object.values(manifest.files).reduce((sum, file) => sum + file.bytes, 0);
        io.out(
          `backed up ${manifest.counts.events} events up to position ${manifest.position} (the log below transaction ${manifest.cut}), ` +
            `${manifest.counts.keys} keys, ${manifest.counts.erasures} erasures, ${manifest.counts.accounts} accounts into ${rest[0]}: ` +
            `${(bytes / 1024 / 1024).toFixed(1)} MiB in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
        );
        return 0;
      }
      case 'erasures': {
        if (values.apply?.length) {
          const entries = (await Promise.all(values.apply.map(readErasureList))).flat();
          const { recorded, erasedSince } = await destroyListedKeys(client, entries);
          await eraseAgain(io, location, erasedSince);
          io.out(
            `${recorded} of ${entries.length} listed erasures were missing here: their keys are destroyed, ${erasedSince.length} erased again by an event\n`,
          );
          return 0;
        }
        const target = values.out ? createWriteStream(values.out) : null;
        let count = 0;
        const listed = (await client.query<{ found: boolean }>(`SELECT to_regclass('keystore.erasures') IS NOT NULL AS found`)).rows[0]!.found;
        if (listed)
          for await (const { subject, contentErased, position, erasedAt } of erasureRows(client)) {
            // the lines of the list the forum keeps (ERASURE_LIST)
            const line = JSON.stringify({ subject, contentErased, position, erasedAt }) + '\n';
            if (!target) io.out(line);
            else if (!target.write(line)) await once(target, 'drain');
            count++;
          }
        if (target) await new Promise<void>((resolve, reject) => target.end((error?: Error | null) => (error ? reject(error) : resolve())));
        io.err(`${count} erasures\n`);
        return 0;
      }
      case 'restore': {
        if (!rest[0]) {
          io.err('restore needs the folder of a backup\n');
          return 2;
        }
        if (eventStoreUrl) {
          io.err('restore writes the log in PostgreSQL: it does not work with EVENTSTORE_URL yet\n');
          return 2;
        }
        if (!values.erasures?.length && !values['no-erasures']) {
          io.err(
            'restore needs --erasures <file> (the erasure list kept apart from the database, or a newer backup) so that no key ' +
              'an erasure destroyed after the backup comes back; --no-erasures if no member was erased since it was taken\n',
          );
          return 2;
        }
        return await restore(io, { client, location, databaseUrl, dir: rest[0], erasureLists: values.erasures ?? [] });
      }
      case 'make-admin': {
        const email = rest[0];
        if (!email) {
          io.err('make-admin needs an email\n');
          return 2;
        }
        const streamId = await userStreamOf(client, email);
        if (!streamId) {
          io.err(`No registered user with the email ${email}: they need to sign in once first\n`);
          return 1;
        }
        const { operator, position } = await asOperator(location, (commands, meta) => commands.grantAdmin(streamId.slice('user-'.length), 'operator', meta));
        io.out(position ? `${email} is now an admin (event at ${position}, actor ${operator})\n` : `${email} was an admin already\n`);
        return 0;
      }
      case 'account': {
        const [action, userId] = rest;
        if ((action !== 'disable' && action !== 'enable') || !userId) {
          io.err("account needs disable or enable, and a user id (the identity provider's subject)\n");
          return 2;
        }
        const { operator, position } = await asOperator(location, (commands, meta) => commands.setAccountAccess(userId, action === 'enable', meta));
        io.out(position ? `${userId} ${action}d (event at ${position}, actor ${operator})\n` : `${userId} was ${action}d already\n`);
        return 0;
      }
      default:
        io.err(`Unknown command ${command}\n\n${USAGE}`);
        return 2;
    }
  } catch (error) {
    io.err(`forumctl ${command}: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await client.end();
  }
}

/** Appends again the AccountErased of each member erased after the log's end (`reapplyErasure`), the operator as actor. */
async function eraseAgain(io: CliIo, location: { databaseUrl: string }, entries: readonly ErasureEntry[]) {
  if (entries.length === 0) return;
  const store = await openEventStore(location, { poolSize: 2 });
  try {
    const commands = createForumCommands(store, { adminEmails: [], directory: streamDirectory(store, () => null) });
    const meta = forumctlMeta(operatorName());
    for (const entry of entries) {
      const { answer } = await commands.reapplyErasure(entry.subject, entry.contentErased ? 'erased' : 'kept', meta);
      io.out(`erased ${entry.subject} again (erased at ${entry.erasedAt || 'a time the list does not say'}): event at ${answer.position}\n`);
    }
  } finally {
    await store.close();
  }
}

/** `forumctl restore`: the backup checked, the target checked empty, loaded, the erasures since applied again, the read models rebuilt and verified. */
async function restore(
  io: CliIo,
  options: { client: pg.Client; location: { databaseUrl: string }; databaseUrl: string; dir: string; erasureLists: readonly string[] },
): Promise<number> {
  const { client, location, databaseUrl, dir } = options;
  const started = performance.now();
  // nothing is written before the backup and the lists are read whole and found sound
  const manifest = await checkBackup(dir);
  const erasures = (await Promise.all(options.erasureLists.map(readErasureList))).flat();
  const contents = await contentsOf(client);
  if (contents.length > 0) {
    io.err(
      `forumctl restore: the target database is not empty (${contents.join(', ')}): restore only into a new forum's database (a DATA_DIR never started, or an empty DATABASE_URL)\n`,
    );
    return 1;
  }
  // the schemas, as the forum makes them at its first start
  await (await openEventStore(location, { poolSize: 1 })).close();
  const db = createKnex(databaseUrl, { max: 4 });
  const store = await openEventStore(location, { poolSize: 3 });
  const reporter = progressReporter(io.err, io.terminal ?? null);
  try {
    if (manifest.counts.accounts > 0) await prepareStore(db);
    const { events, erasedSince } = await loadBackup(client, dir, erasures);
    io.out(`restored ${events} events up to position ${manifest.position}, taken ${manifest.takenAt}\n`);
    // an erasure recorded after the backup's cut is applied again as an event, as the member chose it then
    const operator = operatorName();
    await eraseAgain(io, location, erasedSince);
    await migrateCheckpoints(db);
    const outcome = await rebuildProjections({
      db,
      connectionString: databaseUrl,
      store,
      projections: allProjections,
      requestedBy: operator,
      logger: createLogger('forumctl', process.env.LOG_LEVEL || 'silent'),
      onProgress: (progress) => reporter.update(progress),
    });
    reporter.stop();
    if (outcome.failed.length > 0) {
      for (const failed of outcome.failed)
        io.err(`${buildLabel(failed.build)}: ${failed.state === 'gone' ? 'was replaced by another build' : `halted: ${failed.error}`}\n`);
      return 1;
    }
    let ok = true;
    for (const projection of allProjections) {
      const result = await verifyProjection(db, store, projection);
      ok &&= result.ok;
      if (!result.ok) io.err(verifyReport(result));
    }
    if (!ok) return 1;
    io.out(
      `read models rebuilt and verified; ${erasedSince.length} erasures since the backup applied again; ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
    );
    return 0;
  } finally {
    reporter.stop();
    await store.close();
    await db.destroy();
  }
}

const names = () => allProjections.map((p) => p.name).join(', ');

/** The projections named on the command line; null (and a message) when one is unknown. */
function pick(requested: readonly string[], io: CliIo) {
  const unknown = requested.filter((name) => !allProjections.some((p) => p.name === name));
  if (unknown.length > 0) {
    io.err(`Unknown projection ${unknown.join(', ')}: one of ${names()}\n`);
    return null;
  }
  return allProjections.filter((p) => requested.includes(p.name));
}

/** The stream of the user registered with this email, from the log itself (not a read model). */
async function userStreamOf(client: pg.Client, email: string): Promise<string | null> {
  const { rows } = await client.query<{ stream_id: string }>(
    `SELECT stream_id FROM eventstore.events WHERE type = 'UserRegistered' AND eventstore.unseal(data)->>'email' = lower($1) ORDER BY global_position LIMIT 1`,
    [email.trim()],
  );
  return rows[0]?.stream_id ?? null;
}

/** The user `--user` names: by email (an erased user's is gone: name them by id), or by id. */
async function userOf(client: pg.Client, user: string): Promise<{ kind: 'user'; id: string } | undefined> {
  if (!user.includes('@')) return { kind: 'user', id: user };
  const streamId = await userStreamOf(client, user);
  return streamId ? { kind: 'user', id: streamId.slice('user-'.length) } : undefined;
}

/** The history page by page, up to `limit` events. */
async function wholeHistory(store: HistoryReader, kind: HistoryKind, id: string, limit: number): Promise<HistoryEntry[]> {
  const events: HistoryEntry[] = [];
  for (;;) {
    const want = Math.min(HISTORY_PAGE_SIZE, limit - events.length);
    const last = events.at(-1);
    const page = await history(store, kind, id, { after: last && parsePositionToken(last.position)!, limit: want });
    events.push(...page);
    if (page.length < want || events.length >= limit) return events;
  }
}

function historyTable(title: string, events: readonly HistoryEntry[]): string {
  return (
    `${title}: ${events.length} ${events.length === 1 ? 'event' : 'events'}\n` +
    table(
      ['position', 'at', 'stream', '#', 'type', 'actor', 'correlation', 'data'],
      events.map((entry) => {
        const data = JSON.stringify(entry.data);
        return [
          entry.position,
          entry.at,
          entry.streamId,
          String(entry.version),
          entry.type,
          entry.actor,
          entry.correlationId,
          data.length > 80 ? `${data.slice(0, 77)}...` : data,
        ];
      }),
    )
  );
}

/** `status`'s lines on the event feeds (Kafka): where each is, and which relay publishes it. */
function feedTable(feeds: readonly FeedStatus[]): string {
  return table(
    ['feed', 'checkpoint', 'head', 'lag', 'published', 'relay', 'standbys'],
    feeds.map((f) => [
      f.name,
      f.checkpoint,
      f.head,
      String(f.lag),
      f.published,
      f.relay ? `pid ${f.relay.pid}${f.relay.address ? ` at ${f.relay.address}` : ''}` : 'none',
      String(f.standbys),
    ]),
  );
}

/**
 * `status`'s lines on replication: on a primary, its standbys and how far each is behind
 * (pg_stat_replication; nothing when it has none); on a standby, its own lag.
 */
async function replicationSummary(db: Knex, self: StandbyStatus): Promise<string> {
  if (self.standby) {
    const state = self.streaming ? 'streaming from its primary' : 'NOT streaming from its primary';
    return `\nThis database is a standby, ${state}${self.replayPaused ? ', replay PAUSED' : ''}: reads may be ${self.lagMs} ms old, ${self.replayBacklogBytes} bytes received and not replayed yet.\n`;
  }
  const replicas = await replicasOf(db);
  if (replicas.length === 0) return '';
  return (
    '\n' +
    table(
      ['replica', 'address', 'state', 'behind (bytes)', 'replay lag'],
      replicas.map((r) => [r.name, r.address ?? 'local', r.state, String(r.replayBehindBytes), `${r.replayLagMs} ms`]),
    )
  );
}
