import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * The `int` level's `npm run build` (a vitest globalSetup), once before its files run: the tests of
 * infra/src/deploy start what the image runs, the compiled JavaScript in each workspace's dist/, and
 * must meet today's sources. `tsc -b` builds only what changed: about a second when nothing did,
 * 15 to 25 s from nothing on 2 cores (docs/building.md).
 */
export default async function buildCompiled() {
  await promisify(execFile)('npm', ['run', '--silent', 'build'], { cwd: root }).catch((error: Error & { stdout?: string }) => {
    throw new Error(`npm run build failed:\n${error.stdout ?? ''}${error.message}`);
  });
}
