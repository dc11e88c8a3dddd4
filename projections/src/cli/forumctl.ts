import { createReadStream, createWriteStream } from 'node:fs';
import os from 'node:os';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { positionToken } from '@forum/contracts';
import { createForumCommands } from '@forum/command-service';
import { createPostgresEventStore, type RecordedEvent } from '@forum/command-service/eventstore';
import { createKnex } from '@forum/platform';
import pg from 'pg';
import { migrateCheckpoints } from '../runner/checkpoints.ts';
import { projectionStatus } from '../runner/status.ts';
import { exportEvents, importEvents } from './log-file.ts';

export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

const USAGE = `forumctl <command>

  status [--json]                        projections: version, state, checkpoint, head, lag, error
  history <stream-id> [--json]           the audit trail of one stream
  history --user <email> | --post <id>   the same, for a user or a post
  export [--from N] [--to N] [--out F]   events as NDJSON (stdout unless --out)
  import <file>                          load an export into an empty event store
  make-admin <email>                     make a registered user an admin (an event; the operator is the actor)
`;

/** Runs one forumctl command against the database; answers the process exit code. */
export async function runForumctl(argv: string[], databaseUrl: string, io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      user: { type: 'string' },
      post: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      out: { type: 'string' },
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
          await migrateCheckpoints(db);
          const status = await projectionStatus(db);
          if (values.json) io.out(JSON.stringify(status, null, 2) + '\n');
          else
            io.out(
              table(
                ['projection', 'version', 'state', 'checkpoint', 'head', 'lag', 'error'],
                status.map((s) => [s.name, String(s.version), s.state, s.checkpoint, s.head, String(s.lag), s.error ? `${s.error} (at ${s.failedPosition})` : '']),
              ),
            );
          return status.some((s) => s.state === 'halted') ? 1 : 0;
        } finally {
          await db.destroy();
        }
      }
      case 'history': {
        const streamId = rest[0] ?? (values.post ? `post-${values.post}` : values.user ? await userStreamOf(client, values.user) : null);
        if (!streamId) {
          io.err(values.user ? `No registered user with the email ${values.user}\n` : 'history needs a stream id, --user <email> or --post <id>\n');
          return values.user ? 1 : 2;
        }
        const store = await createPostgresEventStore({ connectionString: databaseUrl, poolSize: 1 });
        try {
          const { events } = await store.readStream(streamId);
          if (events.length === 0) {
            io.err(`No events in ${streamId}\n`);
            return 1;
          }
          io.out(values.json ? JSON.stringify(events.map(historyEntry), null, 2) + '\n' : historyTable(streamId, events));
          return 0;
        } finally {
          await store.close();
        }
      }
      case 'export': {
        const target = values.out ? createWriteStream(values.out) : null;
        const write = (line: string) =>
          target ? new Promise<void>((resolve, reject) => (target.write(line) ? resolve() : target.once('drain', resolve).once('error', reject))) : void io.out(line);
        const count = await exportEvents(client, write, { from: values.from ? BigInt(values.from) : undefined, to: values.to ? BigInt(values.to) : undefined });
        if (target) await new Promise<void>((resolve, reject) => target.end((error?: Error | null) => (error ? reject(error) : resolve())));
        io.err(`exported ${count} events\n`);
        return 0;
      }
      case 'import': {
        if (!rest[0]) {
          io.err('import needs a file\n');
          return 2;
        }
        // the schema exists even in a database nothing has started on yet
        await (await createPostgresEventStore({ connectionString: databaseUrl, poolSize: 1 })).close();
        const file = rest[0];
        const count = await importEvents(client, () => createInterface({ input: createReadStream(file), crlfDelay: Infinity }));
        io.err(`imported ${count} events; start the forum to project them\n`);
        return 0;
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
        const store = await createPostgresEventStore({ connectionString: databaseUrl, poolSize: 1 });
        try {
          const operator = `operator:${os.userInfo().username}`;
          const executed = await createForumCommands(store, { adminEmails: [] }).grantAdmin(streamId.slice('user-'.length), 'operator', {
            actorId: operator,
            now: new Date(),
            correlationId: `forumctl-${Date.now()}`,
            causationId: null,
            requestId: null,
          });
          io.out(executed.answer.position ? `${email} is now an admin (event at ${executed.answer.position}, actor ${operator})\n` : `${email} was an admin already\n`);
          return 0;
        } finally {
          await store.close();
        }
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

/** The stream of the user registered with this email, from the log itself (not a read model). */
async function userStreamOf(client: pg.Client, email: string): Promise<string | null> {
  const { rows } = await client.query<{ stream_id: string }>(
    `SELECT stream_id FROM eventstore.events WHERE type = 'UserRegistered' AND data->>'email' = lower($1) ORDER BY global_position LIMIT 1`,
    [email.trim()],
  );
  return rows[0]?.stream_id ?? null;
}

function historyEntry(event: RecordedEvent) {
  return {
    position: positionToken(event.position),
    version: event.streamVersion,
    at: event.recordedAt.toISOString(),
    type: event.type,
    actor: event.metadata.actorId,
    correlationId: event.metadata.correlationId,
    data: event.data,
  };
}

function historyTable(streamId: string, events: readonly RecordedEvent[]): string {
  return (
    `${streamId}: ${events.length} events\n` +
    table(
      ['#', 'position', 'at', 'type', 'actor', 'correlation', 'data'],
      events.map((e) => {
        const entry = historyEntry(e);
        const data = JSON.stringify(entry.data);
        return [String(entry.version), entry.position, entry.at, entry.type, entry.actor, entry.correlationId, data.length > 80 ? `${data.slice(0, 77)}...` : data];
      }),
    )
  );
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n') + '\n';
}
