/**
 * `npm run build:web` (`npm start` and `npm test` run it first): builds forum-web and admin-web when
 * what they are built from changed since their last build, in one line; `--force` builds them anyway.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWebApps, WEB_APPS } from './web-apps.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const built = await buildWebApps({
  root,
  apps: WEB_APPS,
  env: process.env,
  force: process.argv.includes('--force'),
  write: (text) => process.stdout.write(text),
});
process.exitCode = built ? 0 : 1;
