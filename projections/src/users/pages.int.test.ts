import type { RecordedEvent } from '@forum/eventstore';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyOwn, DEFERRED_SETTING } from '../runner/projection.ts';
import { projectionHarness } from '../testing/given.ts';
import { USER_LISTS, usersThroughBlocks, type UserList } from './page-reads.ts';
import { usersProjection } from './projection.ts';

/**
 * Any page of the admin's user list through the users projection's page anchors is the page OFFSET
 * gives, in every sort and both directions: a property over a generated log (registrations with
 * names and times that tie, renames, admins, members), applied in batches of random sizes with
 * blocks of 3 users so that blocks split all the time.
 */
let harness: Awaited<ReturnType<typeof projectionHarness>>;
beforeAll(async () => {
  harness = await projectionHarness('user_pages');
});
afterAll(() => harness?.stop());

const PAGE = 4;
type Model = Awaited<ReturnType<typeof harness.fresh>>;

function generatedLog(seed: number, users: number): RecordedEvent[] {
  let random = seed;
  const next = (n: number) => (random = (random * 1103515245 + 12345) % 2147483648) % n;
  const names = ['ann', 'Ann', 'bob', 'Émile', 'zoë', 'Zed', '', "o'neil", 'Bob Smith', 'bob smith'];
  const start = Date.parse('2026-01-01T00:00:00Z');
  const events: RecordedEvent[] = [];
  for (let i = 0; i < users; i++) {
    const userId = `u-${next(100_000).toString(36)}-${i}`;
    // registration times tie often (whole minutes), so the id decides
    const registeredAt = new Date(start + next(20) * 60_000 + (next(3) === 0 ? 123 : 0)).toISOString();
    const email = `${names[next(names.length)]!.replace(/\W/g, '') || 'x'}${next(5)}@Forum.test`;
    events.push(harness.event('UserRegistered', { userId, email, name: names[next(names.length)], photoURL: '', registeredAt }));
    const earlier = () => (events.find((e, at) => e.type === 'UserRegistered' && at >= next(events.length)) ?? events[0]!).data as { userId: string };
    if (next(3) === 0)
      events.push(harness.event('ProfileUpdated', { userId: earlier().userId, changes: { name: names[next(names.length)] }, updatedAt: registeredAt }));
    if (next(7) === 0) events.push(harness.event('AdminRoleGranted', { userId: earlier().userId, reason: 'admin', grantedAt: registeredAt }));
    if (next(5) === 0) {
      events.push(
        harness.event('MembershipPurchased', {
          userId: earlier().userId,
          attemptId: '00000000-0000-4000-8000-000000000001',
          paymentReference: 'p',
          amountCents: 999,
          currency: 'USD',
          purchasedAt: registeredAt,
        }),
      );
    }
  }
  return events;
}

async function newModel(block: number) {
  const model = await harness.fresh(usersProjection);
  await model.inSchema((trx) => trx.raw('UPDATE user_page_settings SET block = ?', [block]));
  return model;
}

/** Every page of every list in both directions, through the anchors and with OFFSET, as id lists. */
async function expectEveryPage(model: Model) {
  const names = (schema: string) => ({
    users: `"${schema}".users`,
    blocks: `"${schema}".user_blocks`,
    settings: `"${schema}".user_page_settings`,
    columns: 'id, name',
    total: `SELECT value FROM "${schema}".counters WHERE name = 'users'`,
  });
  let users = 0;
  for (const list of Object.keys(USER_LISTS) as UserList[]) {
    for (const direction of ['ASC', 'DESC'] as const) {
      const all = (await model.rows<{ id: string }>(`SELECT id FROM users ORDER BY ${USER_LISTS[list]} ${direction}, id ${direction}`)).map((r) => r.id);
      for (let offset = 0; offset <= all.length + PAGE; offset += PAGE) {
        const { sql, bindings } = usersThroughBlocks(list, direction, names(model.schema), offset, PAGE);
        const rows = await model.rows<{ current: boolean; total: string; id: string | null }>(sql, bindings);
        expect(rows[0]!.current).toBe(true);
        expect(Number(rows[0]!.total)).toBe(all.length);
        expect(
          rows.filter((r) => r.id !== null).map((r) => r.id),
          `${list} ${direction} from ${offset}`,
        ).toEqual(all.slice(offset, offset + PAGE));
      }
      users = all.length;
    }
  }
  return users;
}

const problems = (model: Model) => model.inSchema((trx) => usersProjection.derived!.problems(trx));

describe("the admin's user list through page anchors", () => {
  it('gives the pages OFFSET gives in every sort and direction, through batches of random sizes with splits', async () => {
    const model = await newModel(3);
    const log = generatedLog(11, 120);
    let random = 5;
    const next = (n: number) => (random = (random * 1103515245 + 12345) % 2147483648) % n;
    for (const until of [Math.floor(log.length / 2), log.length]) {
      let at = until === log.length ? Math.floor(log.length / 2) : 0;
      while (at < until) {
        const batch = log.slice(at, Math.min(at + 1 + next(30), until));
        await model.given(batch);
        at += batch.length;
      }
      expect(await problems(model), `after ${at} events`).toEqual([]);
      expect(await expectEveryPage(model)).toBeGreaterThan(until === log.length ? 100 : 50);
    }
    const blocks = await model.rows<{ n: number }>(`SELECT count(*)::int AS n FROM user_blocks WHERE list = 'name'`);
    expect(blocks[0]!.n).toBeGreaterThan(15); // they split
  }, 120_000);

  it('are made afresh after a replay that deferred them, and followed again after it', async () => {
    const model = await newModel(3);
    const log = generatedLog(29, 80);
    const half = Math.floor(log.length / 2);
    await model.inSchema(async (trx) => {
      await trx.raw(DEFERRED_SETTING);
      await applyOwn(trx, usersProjection, log.slice(0, half));
    });
    expect(await model.rows('SELECT valid FROM user_page_settings')).toEqual([{ valid: false }]);
    await model.inSchema((trx) => usersProjection.derived!.rebuild(trx));
    expect(await problems(model)).toEqual([]);
    await expectEveryPage(model);
    await model.given(log.slice(half), 7);
    expect(await problems(model)).toEqual([]);
    await expectEveryPage(model);
  }, 120_000);

  it('while out of date, reads say so and give no users (the store then pages with OFFSET)', async () => {
    const model = await newModel(3);
    await model.inSchema(async (trx) => {
      await trx.raw(DEFERRED_SETTING);
      await applyOwn(trx, usersProjection, generatedLog(3, 10));
    });
    const { sql, bindings } = usersThroughBlocks(
      'name',
      'ASC',
      {
        users: 'users',
        blocks: 'user_blocks',
        settings: 'user_page_settings',
        columns: 'id',
        total: `SELECT value FROM counters WHERE name = 'users'`,
      },
      0,
      PAGE,
    );
    expect((await model.rows<{ total: unknown }>(sql, bindings)).map((row) => ({ ...row, total: Number(row.total) }))).toEqual([
      { current: false, total: 10, id: null, sort_key: null },
    ]);
  });

  it('report a block whose size is wrong', async () => {
    const model = await newModel(3);
    await model.given(generatedLog(5, 30));
    await model.inSchema((trx) => trx.raw(`UPDATE user_blocks SET size = size + 1 WHERE list = 'email' AND lo_id = ''`));
    expect(await problems(model)).toEqual([expect.stringMatching(/^email block .*: size \d+, holds \d+$/)]);
  });
});
