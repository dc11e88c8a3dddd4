/**
 * Imported first by the web apps' entries, before any schema exists: zod decides when it builds an
 * object schema whether to compile its parser with `new Function`, and its probe for that is
 * reported as a CSP violation on a page without 'unsafe-eval' (the apps' CSP,
 * docs/security/headers.md). Parsing stays the same, only without compiled parsers, which a page
 * does not notice; the services, which do not import this, keep compiling.
 */
import { config } from 'zod';

config({ jitless: true });
