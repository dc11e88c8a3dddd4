import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { START } from '@forum/contracts';
import { createPostgresEventStore } from '@forum/eventstore';
import { freePort } from '@forum/platform/embedded-postgres';
import { createTestDatabase, testEventMetadata, waitFor } from '@forum/platform/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The feed's relay in a process of its own, as `npm run start:relay` starts it, with a broker that
 * does not answer (nothing listens on its port; no Kafka is needed): it starts, says on /readyz
 * that publishing fails, keeps its checkpoint where it was; a second one stands by and takes over
 * when the first is killed; it stops cleanly on SIGTERM. What it does with a real broker is in
 * feed/src/kafka/publisher.int.test.ts.
 */
const entry = path.join(path.dirname(fileURLToPath(import.meta.url)), 'relay.ts');
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let deadBroker: number;
let relay: ChildProcess;
let output = '';
let base: string;
/** A second relay on the same feed, started by the take-over test. */
let second: { process: ChildProcess; base: string } | null = null;

const answerOf = async (url: string) => {
  try {
    const answer = await fetch(url);
    return {
      status: answer.status,
      body: (await answer.json()) as { status: string; checks: Record<string, { ok: boolean; detail?: Record<string, unknown> }> },
    };
  } catch {
    return { status: 0, body: null };
  }
};

/** `npm run start:relay` against the test database and a broker that does not answer; its health on the port it answers. */
async function startRelay(): Promise<{ process: ChildProcess; base: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    env: { ...process.env, PORT: String(port), DATABASE_URL: database.url, KAFKA_BROKERS: `127.0.0.1:${deadBroker}`, LOG_LEVEL: 'info', LOG_FORMAT: 'json' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  return { process: child, base: `http://127.0.0.1:${port}` };
}

beforeAll(async () => {
  database = await createTestDatabase('relay_process');
  const store = await createPostgresEventStore({ connectionString: database.url });
  await store.append([{ streamId: 'post-1', expectedVersion: 'no_stream', events: [{ type: 'PostVoted', data: {}, metadata: testEventMetadata() }] }]);
  await store.close();
  deadBroker = await freePort();
  ({ process: relay, base } = await startRelay());
}, 60_000);
afterAll(async () => {
  for (const child of [relay, second?.process]) if (child?.exitCode === null) child.kill('SIGKILL');
  await database?.drop();
});

describe('the feed relay’s process', () => {
  it('is alive, and not ready while the broker does not answer: the checkpoint stays where it was', { timeout: 90_000 }, async () => {
    const answer = await waitFor(
      () => answerOf(`${base}/readyz`),
      (a) => a.status === 503 && a.body?.checks.feed?.detail?.failing !== undefined,
      60_000,
    ).catch((error: Error) => {
      throw new Error(`${error.message}\n${output.slice(-4000)}`);
    });
    expect(answer.body!.checks.database).toMatchObject({ ok: true });
    expect(answer.body!.checks.feed).toMatchObject({ ok: false, detail: { checkpoint: '0.0', published: '0' } });
    expect((await answerOf(`${base}/healthz`)).status).toBe(200);
    // the log's event was never acknowledged: the checkpoint row says nothing was published
    const db = new pg.Client({ connectionString: database.url });
    await db.connect();
    const { rows } = await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM feed.checkpoints WHERE pos > $1`, [START.globalPosition.toString()]);
    await db.end();
    expect(rows[0]!.n).toBe('0');
    // the broker's failure is logged, with what the relay does about it
    expect(output).toContain('feed publish failed; sending the batch again');
  });

  it('a second relay stands by, ready; it takes over within seconds when the first is killed (SIGKILL)', { timeout: 90_000 }, async () => {
    second = await startRelay();
    const standing = await waitFor(
      () => answerOf(`${second!.base}/readyz`),
      (a) => a.body?.checks.feed?.detail?.role === 'standby',
      60_000,
    ).catch((error: Error) => {
      throw new Error(`${error.message}\n${output.slice(-4000)}`);
    });
    // a standby is ready: it publishes nothing, so the broker's silence is not its failure
    expect(standing.status).toBe(200);
    expect(standing.body!.checks.feed).toMatchObject({ ok: true, detail: { role: 'standby', checkpoint: '0.0' } });
    expect((await answerOf(`${base}/readyz`)).body!.checks.feed).toMatchObject({ ok: false, detail: { role: 'active' } });

    const exited = new Promise((resolve) => relay.once('exit', resolve));
    const killed = performance.now();
    relay.kill('SIGKILL');
    await exited;
    const active = await waitFor(
      () => answerOf(`${second!.base}/readyz`),
      (a) => a.body?.checks.feed?.detail?.role === 'active',
      10_000,
    );
    const takeOver = performance.now() - killed;
    // the one left running is the relay the next test stops, whatever this one finds
    relay = second.process;
    base = second.base;
    console.info(`feed take-over after SIGKILL of the active relay's process: ${Math.round(takeOver)} ms`);
    expect(takeOver).toBeLessThan(5_000);
    // it now publishes, and fails as the first did: the broker still does not answer
    expect(active.body!.checks.feed).toMatchObject({ detail: { role: 'active', checkpoint: '0.0' } });
    expect(output).toContain("another relay holds the feed's lock: standing by");
    // it says so before it reports itself active, but its log comes through a pipe, which may bring it after the answer
    await expect.poll(() => output, { timeout: 5_000 }).toContain("feed relay took over the feed's lock");
  });

  it('stops on SIGTERM with exit code 0', async () => {
    const exited = new Promise<number | null>((resolve) => relay.once('exit', (code) => resolve(code)));
    relay.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
