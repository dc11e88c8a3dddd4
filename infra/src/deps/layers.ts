import layers from './layers.json' with { type: 'json' };

/**
 * The workspaces' layers, lowest first (`layers.json`, which `eslint.config.js` reads too): a
 * workspace may import (and declare) only workspaces in a layer below its own, in a stack it belongs
 * to. Workspaces of one layer do not import each other. The server and the browser are two stacks
 * that share `contracts`: the web apps never import server code, and the server never imports a web
 * app. A new workspace gets its line in `layers.json`.
 */
export const LAYERS: Readonly<Record<string, readonly (readonly string[])[]>> = layers;
