/** `npm start`: the whole forum on one port with embedded defaults. */
import { createLogger, loadConfig } from '@forum/platform';
import { EmbeddedConfig } from './config.ts';
import { banner, startForum } from './forum.ts';

const config = loadConfig(EmbeddedConfig);
const logger = createLogger('forum', config.LOG_LEVEL);
const forum = await startForum(config, logger);
process.stdout.write(banner(forum) + '\n');

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping');
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    void forum.stop().then(() => process.exit(0));
  });
}
