import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createLogger } from '@forum/platform';
import { freePort } from '@forum/platform/embedded-postgres';
import { createTestDatabase, waitFor } from '@forum/platform/testing';
import { afterAll, describe, expect, it } from 'vitest';
import type { ServiceProcess as SourceServiceProcess } from '../replicated/service-process.ts';
import { compiledGraph } from './compiled-graph.ts';
import { COMPILED_ENTRY, deployDir, lastCommand, root, startScripts } from './deploy-files.ts';

/**
 * The production build (`npm run build`, which the `int` level runs first) as the image runs it:
 * every process the image names has a compiled entry, what those entries load is compiled code and
 * production dependencies only, and the image's all-in-one process starts from it with plain node.
 */
const scripts = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
const entries = new Map([
  ...[...startScripts()].map(([name, script]) => [name, lastCommand(script)] as const),
  ['forumctl', lastCommand(scripts.scripts.forumctl!)],
]);
const entryFile = (command: string) => command.split(' ').at(-1)!;

describe('the production build', () => {
  it('gives every process the image runs (each start: script, forumctl) a compiled entry that node runs', () => {
    expect([...entries.keys()].sort()).toEqual(
      expect.arrayContaining(['command-service', 'forumctl', 'gateway', 'projections', 'query-service', 'relay', 'replicated']),
    );
    for (const [name, command] of entries) {
      expect(command, name).toMatch(COMPILED_ENTRY);
      expect(existsSync(path.join(root, entryFile(command))), `${name}: ${entryFile(command)}`).toBe(true);
    }
  });

  it('loads only compiled files and the production dependencies of their workspaces (no tsx, TypeScript, test or bench tools)', () => {
    const { files, problems } = compiledGraph([...[...entries.values()].map(entryFile), 'infra/dist/embedded/main.js']);
    expect(problems).toEqual([]);
    // every server workspace is in it, through the workspaces' compiled exports
    expect(new Set(files.map((file) => file.split('/')[0]))).toEqual(
      new Set([
        'contracts',
        'platform',
        'eventstore',
        'eventstore-kurrentdb',
        'identity',
        'command-service',
        'projections',
        'feed',
        'mailer',
        'query-service',
        'infra',
      ]),
    );
  });

  it('refuses what the image could not load: a source file, a test-only export, a dev dependency', async () => {
    const probe = path.join(root, 'infra/dist/compiled-graph-probe.js');
    await writeFile(probe, "import autocannon from 'autocannon';\nimport { waitFor } from '@forum/platform/testing';\nimport './embedded/main.ts';\n");
    try {
      expect(compiledGraph([probe]).problems).toEqual([
        'infra/dist/compiled-graph-probe.js: imports autocannon, not in the dependencies of @forum/infra',
        'infra/dist/compiled-graph-probe.js: imports @forum/platform/testing, which has no compiled export',
        "infra/dist/embedded/main.ts: not a compiled file of a workspace's dist/",
      ]);
    } finally {
      await rm(probe);
    }
  });
});

describe("the image's all-in-one process (entry.sh forum), compiled, with plain node", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  let forum: ChildProcess | undefined;
  let dataDir: string | undefined;
  afterAll(async () => {
    if (forum?.exitCode === null && forum.signalCode === null) forum.kill('SIGKILL');
    await database?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('answers /readyz 200, and SIGTERM ends it with exit code 0', async () => {
    database = await createTestDatabase('deploy_compiled');
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'forum-compiled-'));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    let output = '';
    const started = performance.now();
    forum = spawn(path.join(deployDir, 'docker/entry.sh'), ['forum'], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: database.url,
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        LOG_FORMAT: 'json',
        OIDC_ISSUER: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    forum.stdout!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    forum.stderr!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    const status = () =>
      fetch(`${base}/readyz`).then(
        (answer) => answer.status,
        () => 0,
      );
    await waitFor(status, (code) => code === 200, 90_000).catch((error: Error) => {
      throw new Error(`${error.message}\n${output}`);
    });
    console.info(`the compiled forum answered /readyz 200 ${((performance.now() - started) / 1000).toFixed(1)} s after its start (a fresh database)`);
    // node itself, on the compiled entry: entry.sh's exec left no shell and no tsx between them
    const argv = readFileSync(`/proc/${forum.pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    expect(argv.slice(1)).toEqual(['--conditions=forum-compiled', 'infra/dist/embedded/main.js']);
    // its signal handlers are in place once it has printed its banner
    await waitFor(
      () => Promise.resolve(output),
      (text) => text.includes('Ctrl-C stops everything'),
      30_000,
    );
    const exited = new Promise<number | null>((resolve) => forum!.once('exit', resolve));
    forum.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 120_000);
});

describe('the replicated supervisor (entry.sh replicated), compiled', () => {
  it('starts its services compiled too: node on infra/dist, ready on /readyz', async () => {
    const database = await createTestDatabase('deploy_compiled_supervisor');
    // the compiled module itself, as `node infra/dist/replicated/main.js` loads it; typed by its source
    const compiled = pathToFileURL(path.join(root, 'infra/dist/replicated/service-process.js')).href;
    const { ServiceProcess } = (await import(compiled)) as { ServiceProcess: typeof SourceServiceProcess };
    const service = new ServiceProcess({
      service: 'projections',
      name: 'projections-1',
      port: await freePort(),
      env: { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'warn', LOG_FORMAT: 'json' },
      logger: createLogger('test', 'warn'),
      output: 'capture',
    });
    try {
      await service.start();
      const argv = readFileSync(`/proc/${service.pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
      expect(argv.slice(1)).toEqual(['--conditions=forum-compiled', path.join(root, 'infra/dist/services/projections.js')]);
    } finally {
      await service.stop();
      await database.drop();
    }
  }, 120_000);
});
