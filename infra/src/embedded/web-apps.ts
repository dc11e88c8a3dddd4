import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { precompress } from './precompress.ts';

/** The web apps the gateway serves, each a workspace whose `build` script writes its `dist/`. */
export const WEB_APPS = ['forum-web', 'admin-web'] as const;

/** Beside the build's output, in its `dist/`: the hash of the sources it was built from (see sourcesHash). */
const STAMP = '.sources-sha256';

/** Not part of what an app is built from: installed packages, build output, tool caches, tests. */
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'dist-server']);
const TEST_FILE = /\.test\.[cm]?[jt]sx?$/;
/** Root files a build reads: the installed versions, the TypeScript options the apps' tsconfigs extend. */
const ROOT_INPUTS = ['package-lock.json', 'tsconfig.base.json'];
/** What the build does after the app's own build script: a change here builds every app again. */
const BUILD_STEPS = 'npm run build, then precompress (br, gzip)';
/** Variables Vite puts into a build (`VITE_…`, read from the environment or an app's `.env` files) or whose mode it follows. */
const BUILD_VARIABLE = /^(VITE_|NODE_ENV$)/;

/**
 * Builds the web apps whose sources changed since their last build (or whose `dist/` is missing,
 * or all when `force`), one after the other, each followed by its compressed files (precompress),
 * and says so in one line: "Building the web apps (forum-web)… done in 8.2 s", or "Web apps are
 * up to date.". A build's own output is written only when it fails, all of it, after "… failed
 * after …"; then the answer is false.
 */
export async function buildWebApps(options: {
  root: string;
  apps: readonly string[];
  env: NodeJS.ProcessEnv;
  force?: boolean;
  write: (text: string) => void;
}): Promise<boolean> {
  const hashes = await Promise.all(options.apps.map((app) => sourcesHash(options.root, app, options.env)));
  const stale = [];
  for (const [index, app] of options.apps.entries()) {
    const built = await readFile(path.join(options.root, app, 'dist', STAMP), 'utf8').catch(() => null);
    if (options.force || built !== hashes[index]) stale.push({ app, hash: hashes[index]! });
  }
  if (stale.length === 0) {
    options.write('Web apps are up to date.\n');
    return true;
  }
  options.write(`Building the web apps (${stale.map(({ app }) => app).join(', ')})… `);
  const startedAt = performance.now();
  const seconds = () => formatSeconds((performance.now() - startedAt) / 1000);
  for (const { app, hash } of stale) {
    const dist = path.join(options.root, app, 'dist');
    // a build that fails half-way must not leave the old stamp beside new files
    await rm(path.join(dist, STAMP), { force: true });
    const result = await runBuild(path.join(options.root, app), options.env);
    if (!result.ok) {
      options.write(`failed after ${seconds()}\n\n${app}:\n${result.output}${result.output.endsWith('\n') ? '' : '\n'}`);
      return false;
    }
    await precompress(dist);
    await writeFile(path.join(dist, STAMP), hash);
  }
  options.write(`done in ${seconds()}\n`);
  return true;
}

const formatSeconds = (seconds: number) => `${seconds < 10 ? seconds.toFixed(1) : Math.round(seconds)} s`;

/** The app's `npm run build` in its folder, its stdout and stderr kept together, in order. */
function runBuild(dir: string, env: NodeJS.ProcessEnv): Promise<{ ok: boolean; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', 'build'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer) => (output += String(chunk));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (error) => resolve({ ok: false, output: `${output}${error.message}\n` }));
    child.on('close', (code) => resolve({ ok: code === 0, output }));
  });
}

/**
 * The hash of everything an app's build reads: the files of its workspace and of every workspace
 * it depends on (through its package.json, transitively), less tests, installed packages and
 * build output; the root's lockfile and base tsconfig; the build variables of `env`; and the
 * steps the build takes (BUILD_STEPS).
 */
export async function sourcesHash(root: string, app: string, env: NodeJS.ProcessEnv): Promise<string> {
  const workspaces = await workspaceFolders(root);
  const folders = new Set<string>();
  const visit = async (folder: string) => {
    if (folders.has(folder)) return;
    folders.add(folder);
    const manifest = JSON.parse(await readFile(path.join(root, folder, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
    for (const name of Object.keys({ ...manifest.dependencies, ...manifest.devDependencies, ...manifest.peerDependencies })) {
      const dependency = workspaces.get(name);
      if (dependency) await visit(dependency);
    }
  };
  await visit(app);
  const files = [...ROOT_INPUTS.filter((name) => existsSync(path.join(root, name)))];
  for (const folder of [...folders].sort()) files.push(...(await sourceFiles(root, folder)));
  const hash = createHash('sha256');
  hash.update(`${BUILD_STEPS}\n`);
  for (const relative of files.sort()) {
    hash.update(
      `${relative}\0${createHash('sha256')
        .update(await readFile(path.join(root, relative)))
        .digest('hex')}\n`,
    );
  }
  for (const [name, value] of Object.entries(env)
    .filter(([name]) => BUILD_VARIABLE.test(name))
    .sort(([a], [b]) => a.localeCompare(b))) {
    hash.update(`$${name}=${value}\n`);
  }
  return hash.digest('hex');
}

/** The root's workspaces by package name: name → folder (relative to the root, as package.json lists it). */
async function workspaceFolders(root: string): Promise<Map<string, string>> {
  const { workspaces = [] } = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as { workspaces?: string[] };
  const entries = await Promise.all(
    workspaces.map(async (folder) => [(JSON.parse(await readFile(path.join(root, folder, 'package.json'), 'utf8')) as { name: string }).name, folder] as const),
  );
  return new Map(entries);
}

/** The files under `folder` (relative to the root, '/'-separated), less SKIPPED_FOLDERS, hidden folders and tests. */
async function sourceFiles(root: string, folder: string): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(path.join(root, folder), { withFileTypes: true })) {
    const relative = `${folder}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!SKIPPED_FOLDERS.has(entry.name) && !entry.name.startsWith('.')) files.push(...(await sourceFiles(root, relative)));
    } else if (entry.isFile() && !TEST_FILE.test(entry.name)) files.push(relative);
  }
  return files;
}
