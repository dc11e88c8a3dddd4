/** query-service on its own (the distributed layout), against DATABASE_URL. */
import { loadConfig } from '@forum/platform';
import { startTracing } from '../tracing.ts';
import { QueryServiceEntryConfig, startQueryService } from './query-service-app.ts';

const tracing = await startTracing('forum-query-service');
const service = await startQueryService(loadConfig(QueryServiceEntryConfig));

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void service
      .stop()
      .then(() => tracing?.stop())
      .then(() => process.exit(0));
  });
}
