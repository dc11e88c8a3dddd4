import type { IncomingMessage } from 'node:http';
import ipaddr from 'ipaddr.js';
import proxyAddr from 'proxy-addr';
import { z } from 'zod';

/** Whether the proxy at `address`, `hop` steps from the forum, is trusted to say who its client is. */
export type ProxyTrust = (address: string, hop: number) => boolean;

/**
 * TRUST_PROXY: which proxies in front of the forum may say who the client is (X-Forwarded-For).
 * Unset or 'false': none, the TCP peer is the client. A number: that many hops of proxies. Else
 * addresses and subnets, comma-separated ('loopback', 'linklocal', 'uniquelocal', '10.0.0.0/8').
 * Never 'true': trusting every hop lets any client name itself.
 */
export const TrustProxy = z
  .string()
  .trim()
  .optional()
  .transform((value, ctx): ProxyTrust => {
    if (value === undefined || value === '' || value === 'false') return () => false;
    if (/^\d{1,3}$/.test(value)) {
      const hops = Number(value);
      return (_address, hop) => hop < hops;
    }
    try {
      return proxyAddr.compile(value.split(',').map((part) => part.trim()));
    } catch {
      ctx.addIssue({ code: 'custom', message: "'false', a number of hops, or addresses and subnets such as 'loopback, 10.0.0.0/8'" });
      return z.NEVER;
    }
  });

/** TRUST_PROXY unset: no proxy is trusted. */
const NO_PROXY = TrustProxy.parse(undefined);

/**
 * The client a limit counts against: the address the nearest untrusted hop gave (the TCP peer
 * when no proxy is trusted, as without `trust`). IPv4 as is, also when IPv4-mapped; IPv6 by its
 * /64, since one subscriber is given a whole /64.
 */
export function clientAddress(req: IncomingMessage, trust: ProxyTrust = NO_PROXY): string {
  const address = proxyAddr(req, trust).replace(/%.*$/, '');
  if (!ipaddr.isValid(address)) return address || 'unknown';
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  return `${(parsed as ipaddr.IPv6).toNormalizedString().split(':').slice(0, 4).join(':')}::/64`;
}
