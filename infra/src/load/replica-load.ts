import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { percentile } from './stats.ts';

/** autocannon's command line: each read load runs in a process of its own (its CPU told apart from a gateway's in this process). */
const AUTOCANNON = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

/** What autocannon's `-j` prints (the figures read here). */
interface AutocannonResult {
  readonly requests: { readonly average: number };
  readonly latency: { readonly p50: number; readonly p99: number };
  readonly non2xx: number;
  readonly errors: number;
}

/** GETs of `url` from `connections` connections for `seconds`, by autocannon in a child process. */
function autocannonProcess(url: string, connections: number, seconds: number): Promise<AutocannonResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [AUTOCANNON, '-c', String(connections), '-d', String(seconds), '-j', url], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      try {
        resolve(JSON.parse(out) as AutocannonResult);
      } catch {
        reject(new Error(`autocannon exited ${code}: ${err.slice(-2000)}`));
      }
    });
  });
}

/** What a load measured: answers per second, latency in ms, and the answers that were not 2xx (or errors). */
export interface Rate {
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly failed: number;
}

/**
 * GETs of `path` from `connections` connections spread evenly over `bases` (query-service replicas,
 * a gateway, haproxy, or query services on a PostgreSQL replica): one autocannon process per base,
 * all at once. The answers per second are summed; p50 is the mean of theirs and p99 the worst.
 */
export async function readsAcross(bases: readonly string[], options: { path: string; connections: number; seconds: number }): Promise<Rate> {
  const results = await Promise.all(
    bases.map((base, i) =>
      autocannonProcess(
        `${base}${options.path}`,
        Math.max(1, Math.floor(options.connections / bases.length) + (i < options.connections % bases.length ? 1 : 0)),
        options.seconds,
      ),
    ),
  );
  return {
    perSecond: results.reduce((sum, result) => sum + result.requests.average, 0),
    p50: results.reduce((sum, result) => sum + result.latency.p50, 0) / results.length,
    p99: Math.max(...results.map((result) => result.latency.p99)),
    failed: results.reduce((sum, result) => sum + result.non2xx + result.errors, 0),
  };
}

/**
 * New posts from one writer per token, each sending its next as soon as the last is answered, for
 * `seconds`; the writers are spread evenly over `bases` (command-service replicas or a gateway).
 */
export async function commandsAcross(bases: readonly string[], tokens: readonly string[], seconds: number): Promise<Rate> {
  const latencies: number[] = [];
  let failed = 0;
  const until = Date.now() + seconds * 1000;
  const writer = async (n: number) => {
    const base = bases[n % bases.length]!;
    for (let i = 0; Date.now() < until; i++) {
      const started = performance.now();
      const response = await fetch(`${base}/api/posts`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${tokens[n]}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ title: `Replica bench post ${n}-${i}`, description: 'Written by npm run bench -- replicas. '.repeat(4), tags: ['DevOps'] }),
      }).catch(() => null);
      await response?.arrayBuffer();
      if (response?.status === 201) latencies.push(performance.now() - started);
      else failed++;
    }
  };
  const started = performance.now();
  await Promise.all(tokens.map((_, n) => writer(n)));
  return { perSecond: latencies.length / ((performance.now() - started) / 1000), p50: percentile(latencies, 50), p99: percentile(latencies, 99), failed };
}
