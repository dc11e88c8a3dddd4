import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@forum/platform/embedded-postgres';
import { createTestDatabase, waitFor } from '@forum/platform/testing';
import { allProjections } from '@forum/projections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scrape } from '../testing/prometheus.ts';

/**
 * The projection runner in a process of its own (the distributed layout), as `npm run
 * start:projections` starts it: its health routes answer on PORT, its metrics on METRICS_PORT, and
 * SIGTERM stops it cleanly.
 */
const entry = path.join(path.dirname(fileURLToPath(import.meta.url)), 'projections.ts');
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let runner: ChildProcess;
let output = '';
let base: string;
let metrics: string;

/** An answer's status, Content-Type and body text; status 0 while nothing listens. */
const answerOf = async (url: string) => {
  try {
    const answer = await fetch(url);
    return { status: answer.status, contentType: answer.headers.get('content-type'), body: await answer.text() };
  } catch {
    return { status: 0, contentType: null, body: '' };
  }
};

beforeAll(async () => {
  database = await createTestDatabase('projections_process');
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const metricsPort = await freePort();
  metrics = `http://127.0.0.1:${metricsPort}/metrics`;
  runner = spawn(process.execPath, ['--import', 'tsx', entry], {
    env: { ...process.env, PORT: String(port), METRICS_PORT: String(metricsPort), DATABASE_URL: database.url, LOG_LEVEL: 'warn', LOG_FORMAT: 'json' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  runner.stdout!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  runner.stderr!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  await waitFor(
    () => answerOf(`${base}/readyz`),
    (answer) => answer.status === 200,
    60_000,
  ).catch((error: Error) => {
    throw new Error(`${error.message}\n${output}`);
  });
}, 90_000);
afterAll(async () => {
  if (runner?.exitCode === null) runner.kill('SIGKILL');
  await database?.drop();
});

describe('the projection runner’s process', () => {
  it('answers /healthz', async () => {
    expect(await answerOf(`${base}/healthz`)).toEqual({ status: 200, contentType: 'application/json; charset=utf-8', body: '{"status":"ok"}' });
  });

  it('answers /readyz with the database’s and the projections’ checks, every worker running', async () => {
    const answer = await answerOf(`${base}/readyz`);
    expect(answer).toMatchObject({ status: 200, contentType: 'application/json; charset=utf-8' });
    const body = JSON.parse(answer.body) as {
      status: string;
      checks: { database: unknown; projections: { ok: boolean; detail: { workers: { name: string; state: string }[] } } };
    };
    expect(Object.keys(body)).toEqual(['status', 'checks']);
    expect(body.status).toBe('ready');
    expect(Object.keys(body.checks)).toEqual(['database', 'projections']);
    expect(body.checks.database).toMatchObject({ ok: true });
    expect(body.checks.projections.ok).toBe(true);
    expect(Object.keys(body.checks.projections.detail)).toEqual(['workers', 'status']);
    expect(body.checks.projections.detail.workers.length).toBeGreaterThan(0);
    for (const worker of body.checks.projections.detail.workers) expect(Object.keys(worker)).toEqual(['name', 'version', 'build', 'role', 'state']);
  });

  it("serves its metrics on METRICS_PORT: every projection's lag, its pool, its readiness", async () => {
    const scraped = await scrape(metrics);
    for (const { name } of allProjections) expect(scraped.find('forum_projection_lag_events', { projection: name, role: 'live' }), name).toHaveLength(1);
    expect(scraped.find('forum_db_pool_connections', { pool: 'main', state: 'idle' })).toHaveLength(1);
    expect(scraped.sum('forum_ready')).toBe(1);
    expect(scraped.samples.every((sample) => sample.labels.service === 'projections')).toBe(true);
  });

  it('answers an unknown path with the error body', async () => {
    expect(await answerOf(`${base}/nothing-here`)).toEqual({
      status: 404,
      contentType: 'application/json; charset=utf-8',
      body: '{"error":{"code":"NOT_FOUND","message":"No such endpoint"}}',
    });
  });

  it('stops on SIGTERM with exit code 0', async () => {
    const exited = new Promise<number | null>((resolve) => runner.once('exit', resolve));
    runner.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect((await answerOf(`${base}/healthz`)).status).toBe(0);
  });
});
