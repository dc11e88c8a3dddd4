import layers from './layers.json' with { type: 'json' };

/**
 * The workspaces' layers, lowest first (`layers.json`, which `eslint.config.js` reads too): a
 * workspace may import (and declare) only workspaces in a layer below its own, in a stack it belongs
 * to. Workspaces of one layer do not import each other. The server and the browser are two stacks
 * that share `contracts`: the web apps never import server code, and the server never imports a web
 * app. A new workspace gets its line in `layers.json`.
 */
export const LAYERS: Readonly<Record<string, readonly (readonly string[])[]>> = layers;

/**
 * Where a read model's views (`read.<view>`) may be named besides its own projection's folder: the
 * query side, which reads them; the notifications' mailer, which mails what the members' notifications
 * say with the names and titles the read models have at send time; the benchmarks, which measure it and pick what to ask from them;
 * and the end-to-end tests of the whole forum and their helpers (`infra/src/testing/`), which look at what the projections wrote. The write
 * side, the composition and the tools meet the read side through the log and the query side's API
 * (docs/architecture.md, "The two sides meet through the log"). Paths from the root.
 */
export const READ_MODEL_READERS: readonly RegExp[] = [
  /^query-service\/src\//,
  /^mailer\/src\//,
  /^infra\/src\/load\//,
  /^infra\/src\/testing\//,
  /^infra\/src\/.+\.test\.tsx?$/,
];
