/** `npm run start:replicated`: the forum as separate processes, every service replicated, behind one gateway on PORT. */
import { createLogger, loadConfig } from '@forum/platform';
import { banner } from '../embedded/forum.ts';
import { stopOnSignals } from '../embedded/stop-on-signals.ts';
import { ReplicatedConfig } from './config.ts';
import { startReplicatedForum } from './forum.ts';
import { startTracing, thenStopTracing } from '../tracing.ts';

// this process's spans are the gateway's; each service's process starts its own (infra/src/services)
const tracing = await startTracing('forum-gateway');
const config = loadConfig(ReplicatedConfig);
const logger = createLogger('forum', config.LOG_LEVEL, { format: config.LOG_FORMAT });
const forum = await startReplicatedForum(config, { env: process.env, logger });
// each service may take its own grace (10 s) to stop
stopOnSignals(
  thenStopTracing(() => forum.stop(), tracing),
  logger,
  30_000,
);

const services = Object.values(forum.services)
  .flat()
  .map((replica) => `    ${replica.name.padEnd(20)} ${replica.url}${replica.metricsUrl ? `   metrics ${replica.metricsUrl}` : ''}`);
process.stdout.write(banner(forum, ['', '  Services (the gateway balances /api over them):', ...services]) + '\n');
