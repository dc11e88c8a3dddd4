import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../testing/forum.ts';
import { startService, stopServices } from '../testing/processes.ts';

/**
 * Two command-service processes (each its own Node process, infra/src/services/command-service.ts) on one database take
 * half a flood each: together they accept exactly the limit, since the counts are in PostgreSQL.
 * The embedded forum stands in for the database and the issuer.
 */
const LIMITS = { comment: { burst: { points: 6 } }, contact: { burst: { points: 3 } } };
let forum: TestForum;
let processes: string[];

beforeAll(async () => {
  forum = await startTestForum();
  const env = {
    DATABASE_URL: forum.databaseUrl,
    OIDC_ISSUER: forum.issuer,
    OIDC_JWKS_URL: `http://127.0.0.1:${forum.port}/realms/forum/protocol/openid-connect/certs`,
    PUBLIC_URL: forum.url,
    WRITE_LIMITS: JSON.stringify(LIMITS),
  };
  processes = await Promise.all([startService('command-service', env), startService('command-service', env)]);
}, 90_000);
afterAll(async () => {
  await stopServices();
  await forum?.stop();
});

/** `count` requests at once, alternating between the two processes; their statuses. */
async function flood(count: number, send: (base: string, i: number) => Promise<Response>): Promise<number[]> {
  const answers = await Promise.all(Array.from({ length: count }, (_, i) => send(processes[i % 2]!, i)));
  for (const answer of answers.filter((a) => a.status === 429)) {
    expect(Number(answer.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('RATE_LIMITED');
  }
  return answers.map((a) => a.status);
}

describe('one limit across two command-service processes', () => {
  it("a member's 20 comments at once, 10 to each process: exactly 6 accepted, and the log holds those 6", { timeout: 60_000 }, async () => {
    const author = await forum.newUser('Author');
    const created = await forum.api('/api/posts', { method: 'POST', token: author.token, json: { title: 'Talk here', description: 'Text', tags: [] } });
    const { id: postId } = (await created.json()) as { id: string };
    const member = await forum.newUser('Flooder');
    const statuses = await flood(20, (base, i) =>
      fetch(`${base}/api/comments`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${member.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ postId, text: `Flood ${i}` }),
      }),
    );
    expect(statuses.filter((s) => s === 201)).toHaveLength(6);
    expect(statuses.filter((s) => s === 429)).toHaveLength(14);
    expect(await forum.eventCount({ type: 'CommentAdded', actorId: member.id })).toBe(6);
  });

  it('8 contact messages at once from one address, 4 to each process: exactly 3 accepted', { timeout: 60_000 }, async () => {
    const before = await forum.eventCount({ type: 'ContactMessageReceived' });
    const statuses = await flood(8, (base) =>
      fetch(`${base}/api/contact`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Vera Visitor', email: 'vera@example.com', message: 'Hello twice over' }),
      }),
    );
    expect(statuses.filter((s) => s === 201)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    expect(await forum.eventCount({ type: 'ContactMessageReceived' })).toBe(before + 3);
  });
});
