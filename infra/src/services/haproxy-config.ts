/** `npm run haproxy-config`: haproxy's configuration for a front that sends the API's reads straight to the query services (docs/gateway.md, "haproxy in front"). */
import { loadConfig } from '@forum/platform';
import { everyAnswerHeaders } from '../embedded/security-headers.ts';
import { HaproxyFrontConfig } from '../replicated/gateway-config.ts';
import { haproxyConfig } from '../replicated/haproxy-config.ts';

const config = loadConfig(HaproxyFrontConfig);
const headers = await everyAnswerHeaders(config.PUBLIC_URL?.startsWith('https:') ?? false);
process.stdout.write(
  haproxyConfig({ bind: { host: config.HOST, port: config.PORT }, gateway: config.GATEWAY_URL, queryServices: config.QUERY_SERVICE_URLS, headers }),
);
