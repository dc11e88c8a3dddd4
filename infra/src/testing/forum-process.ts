import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const main = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../embedded/main.ts');
const root = path.resolve(path.dirname(main), '../../..');

/** What `npm start` runs once the web apps are built: the last command of its script, as words. */
export const npmStartCommand = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start
  .split('&&')
  .at(-1)!
  .trim()
  .split(/\s+/);

export interface ForumProcess {
  readonly child: ChildProcess;
  /** All it printed up to its banner. */
  readonly ready: Promise<string>;
  /** All it printed so far. */
  output(): string;
}

/**
 * `npm start`'s forum (infra/src/embedded/main.ts) in a process of its own on `port`, with its data
 * in `dataDir`, an embedded PostgreSQL and realm unless `env` says otherwise. `asNpmStart`: the
 * command `npm start` runs, from the repository's root, in a process group of its own as a terminal's job.
 */
export function startForumProcess({
  port,
  dataDir,
  env = {},
  asNpmStart = false,
}: {
  port: number;
  dataDir: string;
  env?: Record<string, string>;
  asNpmStart?: boolean;
}): ForumProcess {
  const child = spawn(process.execPath, asNpmStart ? npmStartCommand.slice(1) : ['--import', 'tsx', main], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      LOG_FORMAT: '',
      DATABASE_URL: '',
      OIDC_ISSUER: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: asNpmStart,
  });
  let output = '';
  const ready = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner in 120 s:\n${output}`)), 120_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ctrl-C stops everything')) {
        clearTimeout(timer);
        resolve(output);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before the banner:\n${output}`));
    });
  });
  return { child, ready, output: () => output };
}

/** How `child` ends. */
export const exitOf = (child: ChildProcess) =>
  new Promise<{ code: number | null; signal: string | null }>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, signal: child.signalCode });
    else child.on('exit', (code, signal) => resolve({ code, signal }));
  });

/** The pid of the PostgreSQL running in `dataDir` (its postmaster.pid), or null when it has none. */
export async function postmasterPid(dataDir: string): Promise<number | null> {
  const file = path.join(dataDir, 'pg', 'postmaster.pid');
  if (!existsSync(file)) return null;
  return Number.parseInt((await readFile(file, 'utf8')).split('\n')[0]!, 10);
}

export const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
