import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type NewUser, type TestForum } from '../testing/forum.ts';
import { given } from '../testing/given.ts';

/**
 * A read whose client goes away has its statement cancelled (the query API's cancellation hook,
 * carried through the token, X-Min-Position and viewer hooks after it), and the connection serves
 * the next read. The leaderboard's table is locked, so its read waits where it can be seen.
 */
let forum: TestForum;
let member: NewUser;
let observer: pg.Client;

const { registeredUser } = given(() => forum);

beforeAll(async () => {
  // statements far outlive the waits here: only the cancel ends them in time
  forum = await startTestForum({ READ_STATEMENT_TIMEOUT_MS: '30000' });
  member = await registeredUser('Leaving Reader');
  observer = new pg.Client(forum.databaseUrl);
  await observer.connect();
});
afterAll(async () => {
  await observer?.end();
  await forum?.stop();
});

/** The read statements waiting for a lock. */
const waiting = async () =>
  (
    await observer.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'forum-read' AND state = 'active' AND wait_event_type = 'Lock'`,
    )
  ).rows;

async function until(condition: () => Promise<boolean>, timeoutMs = 8_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('a read whose client leaves', () => {
  // a query string of its own: never answered from memory, the statement runs
  it.each([
    ['a visitor', () => ({}), '?visitor'],
    ['a member', () => ({ authorization: `Bearer ${member.token}` }), '?member'],
  ])('of %s has its statement cancelled, and the connection serves the next read', async (_who, headers, query) => {
    const locker = new pg.Client(forum.databaseUrl);
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE read.author_stats IN ACCESS EXCLUSIVE MODE');
      const client = new AbortController();
      const request = fetch(`${forum.url}/api/users/top-voted${query}`, { headers: headers(), signal: client.signal }).catch((error: Error) => error);
      await until(async () => (await waiting()).length === 1);
      client.abort();
      await request;
      await until(async () => (await waiting()).length === 0);
    } finally {
      await locker.query('ROLLBACK');
      await locker.end();
    }
    const next = await fetch(`${forum.url}/api/users/top-voted${query}`, { headers: headers() });
    expect(next.status).toBe(200);
  });
});
