/** `npm start`: the whole forum on one port with embedded defaults. */
import { createLogger, loadConfig } from '@forum/platform';
import { EmbeddedConfig } from './config.ts';
import { banner, startForum } from './forum.ts';
import { stopOnSignals } from './stop-on-signals.ts';
import { startTracing, thenStopTracing } from '../tracing.ts';

const tracing = await startTracing('forum');
const config = loadConfig(EmbeddedConfig);
const logger = createLogger('forum', config.LOG_LEVEL, { format: config.LOG_FORMAT });
const forum = await startForum(config, logger);
stopOnSignals(
  thenStopTracing(() => forum.stop(), tracing),
  logger,
  15_000,
);
process.stdout.write(banner(forum) + '\n');
