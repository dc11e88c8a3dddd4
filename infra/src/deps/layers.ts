/**
 * The workspaces' layers, lowest first: a workspace may import (and declare) only workspaces in a
 * layer below its own, in a stack it belongs to. Workspaces of one layer do not import each other.
 * The server and the browser are two stacks that share `contracts`: the web apps never import
 * server code, and the server never imports a web app. A new workspace gets its line here.
 */
export const LAYERS: Readonly<Record<string, readonly (readonly string[])[]>> = {
  server: [
    ['contracts'],
    ['platform'],
    ['eventstore'],
    ['command-service', 'projections', 'identity', 'eventstore-kurrentdb', 'feed'],
    ['query-service'],
    ['infra'],
    ['e2e'],
  ],
  web: [
    ['contracts'],
    ['web-auth', 'web-ui'],
    ['forum-web', 'admin-web'],
  ],
};
