/**
 * Imported first by the web apps' entries, before any schema exists: zod decides when it builds an
 * object schema whether to compile its parser with `new Function`, and its probe for that is
 * reported as a CSP violation on a page without 'unsafe-eval' (the apps' CSP,
 * docs/security/headers.md). Parsing stays the same, only without compiled parsers, which a page
 * does not notice; the services, which do not import this, keep compiling.
 *
 * zod keeps its settings (`z.config()`) in one object on `globalThis.__zod_globalConfig`, shared by
 * every copy of zod a page loads (zod 4.4, colinhacks/zod#5889), and takes the object it finds
 * there. Setting `jitless` on it here is `z.config({ jitless: true })` without loading zod: the
 * apps' first script, which builds no schema, does not carry zod's core (3.9 KB gzip).
 */
const zodGlobal = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
(zodGlobal.__zod_globalConfig ??= {}).jitless = true;
