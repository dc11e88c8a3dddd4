import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger, type Logger } from '@forum/platform';
import { bindPublicPort } from '../embedded/public-port.ts';
import { createGateway } from '../embedded/gateway.ts';
import { startMetrics } from '../metrics.ts';
import { apiProxy, discoveryProxy, servicesApiDocument } from './api-proxy.ts';
import type { GatewayConfig } from './gateway-config.ts';
import { ReplicaSet, replicasCheck } from './replica-set.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface StandaloneGateway {
  readonly url: string;
  readonly port: number;
  /** Where its metrics are scraped; null when METRICS_PORT is unset. */
  readonly metricsUrl: string | null;
  stop(): Promise<void>;
}

/**
 * The gateway on its own (the distributed layout): the web apps, and /api balanced over the
 * command and query services it is given, as `npm run start:replicated`'s gateway does over the
 * processes it starts; sign-in is the identity provider's (OIDC_ISSUER), not the gateway's.
 */
export async function startGateway(
  config: GatewayConfig,
  logger: Logger = createLogger('gateway', config.LOG_LEVEL, { format: config.LOG_FORMAT }),
): Promise<StandaloneGateway> {
  const served = await startMetrics('gateway', config, logger);
  const command = new ReplicaSet('command-service', config.COMMAND_SERVICE_URLS, logger);
  const query = new ReplicaSet('query-service', config.QUERY_SERVICE_URLS, logger);
  const publicPort = await bindPublicPort(config);
  const gateway = await createGateway({
    api: [apiProxy({ command, query, trustProxy: config.TRUST_PROXY })],
    discovery: discoveryProxy({ query, trustProxy: config.TRUST_PROXY }),
    publicUrl: publicPort.url,
    proxied: true,
    apiDocument: () => servicesApiDocument({ command, query }),
    forumWebDir: config.FORUM_WEB_DIR ? path.resolve(config.FORUM_WEB_DIR) : path.join(root, 'forum-web/dist'),
    adminWebDir: config.ADMIN_WEB_DIR ? path.resolve(config.ADMIN_WEB_DIR) : path.join(root, 'admin-web/dist'),
    logger,
    headers: publicPort.headers,
    metrics: served?.metrics,
    checks: { commandService: () => Promise.resolve(replicasCheck(command)), queryService: () => Promise.resolve(replicasCheck(query)) },
  });
  await gateway.ready();
  publicPort.open(gateway);
  return {
    url: publicPort.url,
    port: publicPort.port,
    metricsUrl: served?.url ?? null,
    async stop() {
      await publicPort.close();
      await Promise.all([command.close(), query.close()]);
      await served?.close();
    },
  };
}
