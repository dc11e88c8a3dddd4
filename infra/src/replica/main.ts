/**
 * `npm run start:replica`: a hot standby of the forum's PostgreSQL on this machine, streaming
 * until Ctrl-C (docs/replica.md). Of DATABASE_URL when set (a superuser's URL; the base backup
 * copies its data directory, so it must be on this machine), else of the embedded PostgreSQL that
 * `npm start` runs in DATA_DIR. The standby lives in REPLICA_DIR; started again, it catches up.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger, DatabaseUrl, loadConfig, logSettings, Port } from '@forum/platform';
import { runningEmbeddedUrl } from '@forum/platform/embedded-postgres';
import { z } from 'zod';
import { startReplica } from './replica.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

const ReplicaConfig = z.object({
  DATABASE_URL: DatabaseUrl.optional(),
  DATA_DIR: z.string().min(1).default('.data'),
  /** The standby's folder. */
  REPLICA_DIR: z.string().min(1).default('.data-replica'),
  /** The standby's port; a free one when unset. */
  REPLICA_PORT: Port.optional(),
  ...logSettings,
});

const config = loadConfig(ReplicaConfig);
const logger = createLogger('replica', config.LOG_LEVEL, { format: config.LOG_FORMAT });
const primaryUrl = config.DATABASE_URL ?? (await runningEmbeddedUrl(path.resolve(root, config.DATA_DIR), 'forum'));
if (!primaryUrl) {
  process.stderr.write(`No PostgreSQL runs in ${path.resolve(root, config.DATA_DIR)}: start the forum (npm start) first, or set DATABASE_URL.\n`);
  process.exit(1);
}
const replica = await startReplica({
  primaryUrl,
  dataDir: path.resolve(root, config.REPLICA_DIR),
  ...(config.REPLICA_PORT !== undefined && { port: config.REPLICA_PORT }),
  log: (line) => logger.debug({ component: 'postgres' }, line),
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  // embedded-postgres's exit hook would exit before the standby has stopped (see embedded/main.ts)
  process.removeAllListeners(signal);
  process.once(signal, () => void replica.stop().then(() => process.exit(0)));
}
process.stdout.write(
  [
    '',
    `  A hot standby of ${new URL(primaryUrl).host} streams on port ${replica.port}.`,
    `  Read from it: READ_DATABASE_URL=${Object.assign(new URL(replica.url), { password: '<password>' }).href.replace('%3Cpassword%3E', '<password>')}`,
    "  (the primary's user and password; with DATABASE_URL set to the primary: npm run start:query-service, or npm start).",
    '  npm start takes a new port for its PostgreSQL at each start: start this again after it.',
    '  Ctrl-C stops it; started again, it catches up.',
    '',
  ].join('\n') + '\n',
);
