import { WRITE_LIMITS, type ErrorBody } from '@forum/contracts';
import { clientAt } from '@forum/identity/testing';
import { matching } from '@forum/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type NewUser, type TestForum } from '../testing/forum.ts';
import { startQueryServer } from '../testing/query-server.ts';

/**
 * GET /api/user-profile/:email stays open to anyone, as the spec has it, but its 200 or 404 says
 * whether an email has an account: it is counted per client address, as registration is
 * (docs/security/accounts.md), with the abuse limits' numbers of contracts (WRITE_LIMITS.lookup),
 * their table and their 429. Found or not, a visitor's or a member's, answered from the visitors'
 * memory or not: every lookup counts.
 */
let forum: TestForum;
let member: NewUser;

beforeAll(async () => {
  forum = await startTestForum({ WRITE_LIMITS: 'on' });
  member = await forum.newUser('Looked Up');
  await forum.register(member.token);
});
afterAll(() => forum?.stop());

const lookup = (email: string, token?: string) => forum.api(`/api/user-profile/${encodeURIComponent(email)}`, token ? { token } : {});

describe('profile lookups by email', () => {
  it("from one address: the burst's lookups are answered, the next ones 429 RATE_LIMITED with Retry-After; another address is still served", async () => {
    const { points, seconds } = WRITE_LIMITS.lookup.burst;
    const answers = await Promise.all(
      Array.from({ length: points + 5 }, (_, i) =>
        i % 3 === 0 ? lookup(member.email) : i % 3 === 1 ? lookup(`nobody-${i}@forum.test`) : lookup(member.email, member.token),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(
      statuses.filter((status) => status === 200 || status === 404),
      statuses.join(','),
    ).toHaveLength(points);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused).toHaveLength(5);
    for (const answer of refused) {
      const retryAfter = Number(answer.headers.get('Retry-After'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(seconds);
      const { error } = (await answer.json()) as ErrorBody;
      expect(error).toEqual({
        code: 'RATE_LIMITED',
        message: matching(/^Too many profile lookups\. Try again in \d+ (seconds?|minutes?)\.$/),
        details: { retryAfterSeconds: retryAfter },
      });
    }
    // a visitor's answer the forum keeps in memory is counted too, and so is a member's own profile
    expect((await lookup(member.email)).status).toBe(429);
    expect((await lookup(member.email, member.token)).status).toBe(429);
    // the address's other reads are not limited
    expect((await forum.api('/api/posts')).status).toBe(200);

    const other = clientAt({ origin: `http://127.0.0.1:${forum.port}`, issuer: forum.issuer }, '127.0.0.2');
    const elsewhere = await other.get(`/api/user-profile/${encodeURIComponent(member.email)}`);
    expect(elsewhere.status).toBe(200);
    expect(((await elsewhere.json()) as { user: { name: string } }).user.name).toBe('Looked Up');
    expect((await other.get('/api/user-profile/nobody@forum.test')).status).toBe(404);
  });

  it('are counted in PostgreSQL: a query service of its own (the distributed layout) refuses the same address, and serves another', async () => {
    const service = await startQueryServer(forum, { WRITE_LIMITS: 'on' });
    try {
      const path = `/api/user-profile/${encodeURIComponent(member.email)}`;
      expect((await fetch(`${service.url}${path}`)).status).toBe(429);
      expect((await clientAt({ origin: service.url, issuer: forum.issuer }, '127.0.0.3').get(path)).status).toBe(200);
    } finally {
      await service.stop();
    }
  });
});
