import { createKnex, type Knex } from '@forum/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '@forum/platform/testing';
import { prepareStore } from './store.ts';
import { createThrottle, DEFAULT_THROTTLE, type Throttle } from './throttle.ts';

/**
 * The realm's per-address limits on registration and password reset, as two realm processes
 * would hold them: two throttles, each with its own connection pool, on one database, taking
 * a flood from one address side by side.
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let pools: Knex[];
let realms: Throttle[];

beforeAll(async () => {
  database = await createTestDatabase('throttle');
  pools = [createKnex(database.url, { max: 10 }), createKnex(database.url, { max: 10 })];
  const { throttleKey } = await prepareStore(pools[0]!);
  realms = pools.map((db) => createThrottle(db, DEFAULT_THROTTLE, Buffer.from(throttleKey, 'base64url')));
});
afterAll(async () => {
  await Promise.all(pools?.map((db) => db.destroy()) ?? []);
  await database?.drop();
});

let n = 0;
const address = () => `10.20.${Math.floor(++n / 250)}.${n % 250}`;

/** `count` attempts at once, alternating between the two realms; how many each let through. */
async function flood(count: number, attempt: (realm: Throttle) => Promise<boolean>): Promise<number> {
  const allowed = await Promise.all(Array.from({ length: count }, (_, i) => attempt(realms[i % 2]!)));
  return allowed.filter(Boolean).length;
}

describe("the realm's per-address limits across two processes", () => {
  it(`registration: 30 at once from one address, exactly ${DEFAULT_THROTTLE.registrationsPerAddress} let through`, async () => {
    const from = address();
    expect(await flood(30, async (realm) => (await realm.registrationAttempted(from)) === 0)).toBe(DEFAULT_THROTTLE.registrationsPerAddress);
  });

  it(`forgot password: 20 at once from one address, exactly ${DEFAULT_THROTTLE.resetRequestsPerAddress} let through`, async () => {
    const from = address();
    expect(await flood(20, async (realm) => (await realm.resetRequested(from)) === 0)).toBe(DEFAULT_THROTTLE.resetRequestsPerAddress);
  });

  it(`reset mails: 20 asked at once for one email, exactly ${DEFAULT_THROTTLE.resetMailsPerEmail} sent`, async () => {
    const email = `flood-${n++}@forum.local`;
    expect(await flood(20, (realm) => realm.resetMailAllowed(email))).toBe(DEFAULT_THROTTLE.resetMailsPerEmail);
  });
});
