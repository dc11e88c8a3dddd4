/**
 * oidc-provider, for the realm's code: its Provider class and errors, imported from the package's own
 * modules, past its entry (lib/index.js). The entry does nothing else but print "oidc-provider
 * WARNING: Unsupported runtime. Use Node.js v22.x LTS, or a later LTS release." on a Node release
 * before 22 LTS; Node 20, which this project runs on, runs the realm and its tests (docs/starting.md).
 * The package declares no "exports", so these files are reachable; a release that moves them fails
 * the realm's first import, in every test. Its types come from @types/oidc-provider.
 */
import * as errors from 'oidc-provider/lib/helpers/errors.js';

export { Provider as default } from 'oidc-provider/lib/provider.js';
export { errors };
export type * from 'oidc-provider';
