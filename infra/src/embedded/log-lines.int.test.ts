import { Writable } from 'node:stream';
import type { PostsPage } from '@forum/contracts';
import { createLogger } from '@forum/platform';
import { duplicateKeysOf } from '@forum/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../testing/forum.ts';
import { realmLoginPage } from '../testing/realm.ts';

/**
 * The log of the whole forum in one process, as an operator's log tool reads it (docs/operations.md,
 * "Logs"): every line is JSON with each key once (JSON.parse keeps the last of two, log tools differ
 * in which they keep), and each request writes one access line with its route's pattern, its status,
 * its duration and its correlation id. The forum runs at debug, the realm signs members in, and the
 * API answers reads, commands and errors.
 */
let forum: TestForum;
const raw: string[] = [];

beforeAll(async () => {
  const logger = createLogger('forum', 'debug', {
    format: 'json',
    destination: new Writable({ write: (chunk, _encoding, done) => (raw.push(String(chunk)), done()) }),
  });
  forum = await startTestForum({ LOG_LEVEL: 'debug' }, { logger });
}, 120_000);
afterAll(async () => {
  await forum?.stop();
});

const lines = () => raw.flatMap((chunk) => chunk.split('\n').filter(Boolean));

let sequence = 0;
/** A call with its own request id, so its lines can be found. */
async function call(path: string, init: Parameters<TestForum['api']>[1] = {}): Promise<{ id: string; status: number }> {
  const id = `log-test-${++sequence}`;
  const response = await forum.api(path, { redirect: 'manual', ...init, headers: { ...(init.headers as Record<string, string>), 'X-Request-Id': id } });
  await response.arrayBuffer();
  return { id, status: response.status };
}

describe('the forum’s log lines', () => {
  it('name each key once, from the realm’s sign-ins to the API’s reads, commands and errors', { timeout: 60_000 }, async () => {
    const token = await forum.signIn('alice@forum.local');
    await expect(forum.signIn('alice@forum.local', 'wrong')).rejects.toThrow();
    await (await realmLoginPage(forum)).arrayBuffer();
    await forum.register(token);
    const postId = ((await (await forum.api('/api/posts?page=1')).json()) as PostsPage).posts[0]!._id;
    await call(`/api/posts/${postId}`);
    await call('/api/comments', { method: 'POST', token, json: { postId, text: 'Logged once' } });
    await call(`/api/posts/${postId}/vote`, { method: 'PUT', token, json: { vote: 'up' } });
    await call('/api/posts?page=0');
    await call('/api/me', { token: 'not.a.jwt' });
    await call('/api/no-such-call');
    await call('/healthz');

    const all = lines();
    expect(all.length).toBeGreaterThan(20);
    // each kind once: the key, and the line's keys up to its message
    const duplicated = new Set(
      all.flatMap((line) => duplicateKeysOf(line).map((key) => `${key} in ${line.replace(/^\{"level":\d+,"time":"[^"]*",/, '{').slice(0, 160)}`)),
    );
    expect([...duplicated]).toEqual([]);
  });

  it('write one line per request: its route’s pattern, status, duration and correlation id', { timeout: 60_000 }, async () => {
    const token = await forum.tokenFor('alice@forum.local');
    await forum.register(token);
    const postId = ((await (await forum.api('/api/posts?page=1')).json()) as PostsPage).posts[0]!._id;
    const calls: [call: Promise<{ id: string; status: number }>, route: string, status: number][] = [
      [call(`/api/posts/${postId}?sort=new`), '/api/posts/:id', 200],
      [call(`/api/posts/${postId}/comments?page=1`), '/api/posts/:id/comments', 200],
      [call('/api/posts', { method: 'POST', token, json: { title: '' } }), '/api/posts', 400],
      [call(`/api/posts/${postId}/vote`, { method: 'PUT', token, json: { vote: 'down' } }), '/api/posts/:id/vote', 200],
      [call('/realms/forum/.well-known/openid-configuration'), '/realms/forum/*', 200],
      [call('/no/such/page'), '/*', 200],
    ];
    for (const [made, route, status] of calls) {
      const { id, status: answered } = await made;
      expect(answered, route).toBe(status);
      await expect.poll(() => accessLinesOf(id).length, { timeout: 5_000 }).toBe(1);
      // nothing else a request writes on its way when all goes well (no request line, no second completion line)
      expect(
        linesOf(id).map((line) => line.msg),
        route,
      ).toEqual(['request completed']);
      expect(accessLinesOf(id)[0], route).toMatchObject({
        route,
        res: { statusCode: status },
        responseTime: expect.any(Number) as number,
        correlationId: expect.any(String) as string,
      });
    }
  });

  it('carry the caller’s correlation id on the access line', async () => {
    const { id } = await call('/api/tags', { headers: { 'X-Correlation-Id': 'journey-7' } });
    await expect.poll(() => accessLinesOf(id)).toMatchObject([{ route: '/api/tags', correlationId: 'journey-7', res: { statusCode: 200 } }]);
  });
});

type Line = Record<string, unknown> & { msg?: string; req?: { id?: string }; res?: { statusCode?: number } };
const linesOf = (id: string): Line[] => lines().flatMap((line) => (line.includes(`"${id}"`) ? [JSON.parse(line) as Line] : []));
const accessLinesOf = (id: string) => linesOf(id).filter((line) => line.res !== undefined);
