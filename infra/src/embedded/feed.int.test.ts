import { freePort } from '@forum/platform/embedded-postgres';
import { waitFor } from '@forum/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../testing/forum.ts';

/**
 * KAFKA_BROKERS turns the feed on in the embedded forum. With a broker that does not answer (no
 * Kafka here) the forum still starts, serves and is ready: /readyz shows the feed failing without
 * failing itself (downstream consumers wait; members do not). The
 * relay's behaviour is in feed/src/relay.int.test.ts, the Kafka adapter's in feed/src/kafka.
 */
let forum: TestForum;
beforeAll(async () => {
  forum = await startTestForum({ KAFKA_BROKERS: `127.0.0.1:${await freePort()}` });
}, 60_000);
afterAll(async () => {
  await forum?.stop();
});

describe('the embedded forum with KAFKA_BROKERS', () => {
  it('serves and is ready while the broker is down, and /readyz shows the feed failing', async () => {
    expect((await forum.api('/api/posts')).status).toBe(200);
    const readiness = await waitFor(
      async () => (await forum.api('/readyz')).json() as Promise<{ status: string; checks: Record<string, { ok: boolean; detail?: { failing?: string } }> }>,
      (body) => body.status === 'ready' && body.checks.feed?.detail?.failing !== undefined,
      60_000,
      200,
    );
    expect(readiness.checks.feed).toMatchObject({ ok: true, detail: { checkpoint: '0.0', published: '0' } });
    expect(readiness.checks.database).toMatchObject({ ok: true });
  });
});
