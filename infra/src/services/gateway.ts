/** The gateway on its own (the distributed layout): the web apps and /api balanced over COMMAND_SERVICE_URLS and QUERY_SERVICE_URLS. */
import { createLogger, loadConfig } from '@forum/platform';
import { stopOnSignals } from '../embedded/stop-on-signals.ts';
import { GatewayConfig } from '../replicated/gateway-config.ts';
import { startGateway } from '../replicated/gateway.ts';
import { startTracing, thenStopTracing } from '../tracing.ts';

const tracing = await startTracing('forum-gateway');
const config = loadConfig(GatewayConfig);
const logger = createLogger('gateway', config.LOG_LEVEL, { format: config.LOG_FORMAT });
const gateway = await startGateway(config, logger);
stopOnSignals(
  thenStopTracing(() => gateway.stop(), tracing),
  logger,
  15_000,
);
logger.info({ port: gateway.port, commandServices: config.COMMAND_SERVICE_URLS, queryServices: config.QUERY_SERVICE_URLS }, 'gateway listening');
