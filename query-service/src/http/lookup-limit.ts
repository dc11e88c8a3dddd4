import { clientAddress, type ProxyTrust } from '@forum/platform';
import type { onRequestHookHandler } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A lookup of an account by email: counted per client address (LookupLimit) before anything else of the read runs. */
    readonly accountLookup?: boolean;
  }
}

/**
 * Counts one lookup of an account by email from `clientAddress` (an IPv4 address, or the /64 of an
 * IPv6 one); past the limit it throws RateLimitedError (429 RATE_LIMITED with Retry-After). The
 * composition fills it with the abuse limits' `lookup` kind (contracts' WRITE_LIMITS).
 */
export type LookupLimit = (clientAddress: string) => Promise<void>;

/**
 * onRequest, the read API's first hook: a route with `config.accountLookup` is counted against the
 * caller's address before the visitors' memory may answer it, so an answer kept in memory costs the
 * same as one read; every other route passes at once. Without a limit (WRITE_LIMITS=off) nothing is counted.
 */
export function lookupLimitHook(limit: LookupLimit | undefined, trustProxy: ProxyTrust | undefined): onRequestHookHandler {
  return (request, _reply, done) => {
    if (!limit || request.routeOptions.config.accountLookup !== true) return done();
    limit(clientAddress(request.raw, trustProxy)).then(() => done(), done);
  };
}
