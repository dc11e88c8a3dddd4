import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { waitFor } from '@forum/platform/testing';

/** haproxy is on this machine's PATH (Debian's package: `apt-get install haproxy`); the tests and the bench that need it skip without it. */
export const haproxyInstalled = (): boolean => spawnSync('haproxy', ['-v'], { stdio: 'ignore' }).status === 0;

export interface RunningHaproxy {
  /** Its process id (a bench counts its CPU). */
  readonly pid: number;
  stop(): Promise<void>;
}

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });

/** haproxy in the foreground with `config`, once it accepts connections on `port` (127.0.0.1). */
export async function startHaproxy(config: string, port: number): Promise<RunningHaproxy> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'forum-haproxy-'));
  const file = path.join(dir, 'haproxy.cfg');
  await writeFile(file, config);
  let output = '';
  const child = spawn('haproxy', ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await waitFor(() => (child.exitCode === null ? listening(port) : Promise.reject(new Error(`haproxy exited: ${output}`))), Boolean, 10_000);
  } catch (error) {
    child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    pid: child.pid!,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
