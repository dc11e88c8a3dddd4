import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '@forum/platform/embedded-postgres';
import { createTestDatabase, waitFor } from '@forum/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployDir } from './deploy-files.ts';

/**
 * The image's entry (deploy/docker/entry.sh), run here as the image runs it: it starts the compiled
 * process of a `start:<name>` script (`npm run build`'s dist/, which the `int` level builds first)
 * with plain node in its own place (exec), so SIGTERM reaches the service and its exit code is the
 * container's.
 */
const entry = path.join(deployDir, 'docker/entry.sh');
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let runner: ChildProcess;
let output = '';
let base: string;

const statusOf = (url: string) =>
  fetch(url).then(
    (answer) => answer.status,
    () => 0,
  );

beforeAll(async () => {
  database = await createTestDatabase('deploy_entry');
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  runner = spawn(entry, ['projections'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: database.url, LOG_LEVEL: 'warn', LOG_FORMAT: 'json' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  runner.stdout!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  runner.stderr!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  await waitFor(
    () => statusOf(`${base}/readyz`),
    (status) => status === 200,
    60_000,
  ).catch((error: Error) => {
    throw new Error(`${error.message}\n${output}`);
  });
}, 90_000);
afterAll(async () => {
  if (runner?.exitCode === null && runner.signalCode === null) runner.kill('SIGKILL');
  await database?.drop();
});

describe('the image’s entry', () => {
  it('runs start:projections’s compiled entry with node in its own place: ready on /readyz, and SIGTERM ends it with exit code 0', async () => {
    expect(await statusOf(`${base}/healthz`)).toBe(200);
    // the shell gave its place to node on the compiled JavaScript: no tsx, no TypeScript source
    const argv = readFileSync(`/proc/${runner.pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    expect(argv.slice(1)).toEqual(['--conditions=forum-compiled', 'infra/dist/services/projections.js']);
    const exited = new Promise<number | null>((resolve) => runner.once('exit', resolve));
    runner.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(await statusOf(`${base}/healthz`)).toBe(0);
  });

  it('runs forumctl, compiled, against the database (forumctl status)', async () => {
    const { stdout } = await promisify(execFile)(entry, ['forumctl', 'status', '--json'], { env: { ...process.env, DATABASE_URL: database.url } });
    expect((JSON.parse(stdout) as { name: string }[]).map((projection) => projection.name)).toContain('posts');
  });

  it('refuses a name that is no start: script, listing those there are (exit code 64)', async () => {
    const refused = await promisify(execFile)(entry, ['no-such-service']).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(refused.code).toBe(64);
    expect(refused.stderr).toContain('entry.sh: no script start:no-such-service in package.json; the services are:');
    expect(refused.stderr).toMatch(/^ {2}command-service$/m);
    expect(refused.stderr).toMatch(/^ {2}projections$/m);
  });
});
