import { API_DOCUMENT_PATH } from '@forum/platform';
import { HEALTH_DEADLINE_MS, HEALTH_INTERVAL_MS, UPSTREAM_HEADERS_TIMEOUT_MS } from './replica-set.ts';

/** A header's name and value. */
export type Header = readonly [name: string, value: string];

export interface HaproxyFront {
  /** Where haproxy listens: host and port (the forum's public port). */
  readonly bind: { readonly host: string; readonly port: number };
  /** The gateway's base URL (`npm run start:gateway`, or `start:replicated`'s): everything but the API's reads goes there. */
  readonly gateway: string;
  /** The query services' base URLs: the API's reads go to them directly. */
  readonly queryServices: readonly string[];
  /** The headers every answer of the gateway carries (everyAnswerHeaders): set on the reads' answers too. */
  readonly headers: readonly Header[];
}

/** The API's paths the gateway answers itself (the merged API document and its pages) or holds open (the change stream). */
const GATEWAY_API_PATHS = `^(${API_DOCUMENT_PATH.replaceAll('.', '\\.')}|/api/docs(/.*)?|/api/stream)/?$`;
/** How long the gateway may take: a command's own deadline and a change stream's heartbeat (20 s) fit in it. */
const GATEWAY_TIMEOUT_S = 65;

const hostPort = (url: string) => {
  const { hostname, port } = new URL(url);
  return `${hostname}:${port || 80}`;
};
/** A value in haproxy's double quotes: `"` and `\` escaped, `%` doubled (a log-format string). */
const quoted = (value: string) => `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('%', '%%')}"`;

/**
 * haproxy's configuration for the front of the replicated forum (docs/gateway.md, "haproxy in
 * front"): the API's reads (GET and HEAD under /api/, without an Origin header) go straight to the
 * query services, every other request to the gateway. For the reads it does what the gateway's
 * replica set does: round robin over the services whose /readyz answers 2xx (asked every
 * HEALTH_INTERVAL_MS, HEALTH_DEADLINE_MS to answer), a read that reached no service or whose
 * connection broke or got no answer's headers within UPSTREAM_HEADERS_TIMEOUT_MS sent to another,
 * the client's address alone in X-Forwarded-For, the gateway's headers on the answer, and
 * connections to the services kept open and shared.
 */
export function haproxyConfig(front: HaproxyFront): string {
  const seconds = (ms: number) => `${ms / 1000}s`;
  return [
    'global',
    '  maxconn 4000',
    '',
    'defaults',
    '  mode http',
    '  timeout connect 5s',
    `  timeout client ${GATEWAY_TIMEOUT_S}s`,
    `  timeout http-keep-alive ${GATEWAY_TIMEOUT_S}s`,
    `  timeout server ${seconds(UPSTREAM_HEADERS_TIMEOUT_MS)}`,
    `  timeout check ${seconds(HEALTH_DEADLINE_MS)}`,
    '',
    'frontend forum',
    `  bind ${front.bind.host}:${front.bind.port}`,
    // the client as haproxy sees it, alone: the gateway (TRUST_PROXY=1 behind haproxy) and the services trust this one hop
    '  http-request set-header X-Forwarded-For %[src]',
    '  acl read method GET HEAD',
    '  acl api path_beg -i /api/',
    `  acl gateway_api path_reg -i ${GATEWAY_API_PATHS}`,
    // a page of another origin: the gateway answers its CORS
    '  acl cross_origin req.hdr_cnt(origin) gt 0',
    '  use_backend query-services if read api !gateway_api !cross_origin',
    '  default_backend gateway',
    '',
    'backend query-services',
    '  balance roundrobin',
    '  option httpchk GET /readyz',
    // idle connections to the services are kept and shared by every client's reads
    '  http-reuse always',
    '  retries 2',
    '  option redispatch 1',
    '  retry-on conn-failure empty-response response-timeout',
    ...front.headers.map(([name, value]) => `  http-response set-header ${name} ${quoted(value)}`),
    `  default-server check inter ${seconds(HEALTH_INTERVAL_MS)} fall 1 rise 1`,
    ...front.queryServices.map((url, i) => `  server query-service-${i + 1} ${hostPort(url)}`),
    '',
    'backend gateway',
    `  timeout server ${GATEWAY_TIMEOUT_S}s`,
    `  server gateway ${hostPort(front.gateway)}`,
    '',
  ].join('\n');
}
