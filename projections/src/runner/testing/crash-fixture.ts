/**
 * Runs the counting projection and kills its own process with SIGKILL in the
 * middle of the batch that holds global position CRASH_AT: the batch's rows
 * are written but its transaction never commits.
 */
import { createPostgresEventStore } from '@forum/eventstore';
import { createKnex, createLogger } from '@forum/platform';
import { createProjectionRunner } from '../runner.ts';
import { countingProjection } from './counting-projection.ts';

const url = process.env.DATABASE_URL!;
const crashAt = BigInt(process.env.CRASH_AT!);
const store = await createPostgresEventStore({ connectionString: url });
const runner = createProjectionRunner({
  db: createKnex(url),
  connectionString: url,
  store,
  logger: createLogger('crash-fixture', 'silent'),
  batchSize: 100,
  projections: [
    countingProjection({
      onEvent: (position) => {
        if (position === crashAt) process.kill(process.pid, 'SIGKILL');
      },
    }),
  ],
});
await runner.start();
