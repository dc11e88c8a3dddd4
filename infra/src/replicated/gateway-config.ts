import { z } from 'zod';
import { EmbeddedConfig } from '../embedded/config.ts';

/** Upstream base URLs, comma-separated (one at least). */
const upstreams = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((part) => part.trim().replace(/\/$/, ''))
      .filter(Boolean),
  )
  .pipe(z.array(z.string().url('Each must be a URL such as http://command-service-1:3001')).min(1, 'Name one service at least'));

/**
 * Configuration of the gateway on its own (`npm run start:gateway`, the distributed layout): the
 * web apps and /api balanced over the services it is given, with an identity provider elsewhere.
 */
export const GatewayConfig = EmbeddedConfig.pick({
  PORT: true,
  HOST: true,
  PUBLIC_URL: true,
  CORS_ORIGINS: true,
  TRUST_PROXY: true,
  FORUM_WEB_DIR: true,
  ADMIN_WEB_DIR: true,
  LOG_LEVEL: true,
  LOG_FORMAT: true,
  METRICS_PORT: true,
  METRICS_HOST: true,
}).extend({
  /** The identity provider (Keycloak's realm): the apps' CSP lets them reach it. */
  OIDC_ISSUER: z.string().url(),
  /** The command services' base URLs: every method but GET and HEAD goes to one of them. */
  COMMAND_SERVICE_URLS: upstreams,
  /** The query services' base URLs: GET and HEAD, the change stream among them. */
  QUERY_SERVICE_URLS: upstreams,
});
export type GatewayConfig = z.infer<typeof GatewayConfig>;

/**
 * `npm run haproxy-config`'s variables: haproxy listens on HOST:PORT in front of the gateway at
 * GATEWAY_URL and sends the API's reads to QUERY_SERVICE_URLS (haproxy-config.ts); PUBLIC_URL in
 * https adds HSTS to the headers it sets.
 */
export const HaproxyFrontConfig = GatewayConfig.pick({ PORT: true, HOST: true, PUBLIC_URL: true, QUERY_SERVICE_URLS: true }).extend({
  /** The gateway's base URL, as haproxy reaches it. */
  GATEWAY_URL: z.string().url(),
});
