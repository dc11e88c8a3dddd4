/**
 * `npm run bench` (or `-- slice`): figures for the first slice, measured end to end over HTTP
 * against `npm start`'s stack (embedded PostgreSQL with fsync on).
 *
 *   posts created/s   POST /api/posts from WRITERS concurrent clients
 *   home reads/s, p99 GET /api/posts?page=1 from READ_CONNECTIONS connections (autocannon)
 *   projection lag    from a write's answer until a reader passing its X-Event-Position sees it
 *
 * BENCH_SECONDS (default 10) sets the length of each phase.
 */
import os from 'node:os';
import autocannon from 'autocannon';
import { HEADER_EVENT_POSITION, HEADER_MIN_POSITION, HEADER_READ_BEHIND } from '@forum/contracts';
import { benchWriters, startBenchServer } from './server.ts';
import { ms, percentile } from './stats.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WRITERS = Number(process.env.WRITERS ?? 16);
const READ_CONNECTIONS = Number(process.env.READ_CONNECTIONS ?? 32);

const server = await startBenchServer();
try {
  const tokens = await (await benchWriters(server, WRITERS)).tokens();

  // Phase 1: writes, with one extra client sampling the projection lag
  const writeLatencies: number[] = [];
  const lags: number[] = [];
  let failedWrites = 0;
  let behind = 0;
  let latest: { position: string; at: number } | null = null;
  const until = Date.now() + SECONDS * 1000;
  const writer = async (n: number) => {
    let i = 0;
    while (Date.now() < until) {
      const started = performance.now();
      const response = await fetch(`${server.base}/api/posts`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${tokens[n % tokens.length]}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ title: `Bench post ${n}-${i++}`, description: 'Written by npm run bench. '.repeat(8), tags: ['DevOps'] }),
      });
      await response.arrayBuffer();
      if (response.status !== 201) {
        failedWrites++;
        continue;
      }
      writeLatencies.push(performance.now() - started);
      latest = { position: response.headers.get(HEADER_EVENT_POSITION)!, at: performance.now() };
    }
  };
  const lagSampler = async () => {
    while (Date.now() < until) {
      const sample = latest;
      if (!sample) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        continue;
      }
      latest = null;
      const response = await fetch(`${server.base}/api/posts?page=1`, { headers: { [HEADER_MIN_POSITION]: sample.position } });
      await response.arrayBuffer();
      if (response.headers.get(HEADER_READ_BEHIND)) behind++;
      lags.push(performance.now() - sample.at);
    }
  };
  const writeStart = performance.now();
  await Promise.all([...Array.from({ length: WRITERS }, (_, n) => writer(n)), lagSampler()]);
  const writeSeconds = (performance.now() - writeStart) / 1000;

  // Phase 2: home page reads
  const reads = await autocannon({
    url: `${server.base}/api/posts?page=1&sort=newest`,
    connections: READ_CONNECTIONS,
    duration: SECONDS,
  });

  const lines = [
    '',
    `forum bench: first slice (${os.cpus().length} cores, Node ${process.version}, PostgreSQL with fsync on)`,
    `  posts created/s      ${(writeLatencies.length / writeSeconds).toFixed(0).padStart(7)}   (${WRITERS} concurrent writers, p50 ${ms(percentile(writeLatencies, 50))}, p99 ${ms(percentile(writeLatencies, 99))}, ${failedWrites} failed)`,
    `  home reads/s         ${reads.requests.average.toFixed(0).padStart(7)}   (${READ_CONNECTIONS} connections, p50 ${ms(reads.latency.p50)}, p99 ${ms(reads.latency.p99)}, ${reads.non2xx + reads.errors} failed)`,
    `  projection lag p99   ${ms(percentile(lags, 99)).padStart(10)}   (p50 ${ms(percentile(lags, 50))}, ${lags.length} samples under write load, ${behind} answered behind)`,
    '',
  ];
  process.stdout.write(lines.join('\n') + '\n');
} finally {
  await server.stop();
}
