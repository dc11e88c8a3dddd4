import { buildSchema } from '@forum/projections';
import { createLogger, createKnex, type Knex } from '@forum/platform';
import { CheckpointWatcher } from '@forum/query-service';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { startTestForum, type TestForum } from '../testing/forum.ts';

/**
 * The query side's checkpoint watcher hears a build's checkpoint twice in the forum's one process:
 * straight from the runner, and later by NOTIFY. The later copy (an older position by then) must
 * not move the build back: readers would wait again, and the visitors' cache, keyed by what the
 * builds have applied, would answer from an older key.
 */
let forum: TestForum;
let db: Knex;
let watcher: CheckpointWatcher;

beforeAll(async () => {
  forum = await startTestForum();
  db = createKnex(forum.databaseUrl, { max: 2 });
  watcher = new CheckpointWatcher(forum.databaseUrl, createLogger('watcher-test', 'silent'));
  await watcher.start();
}, 120_000);
afterAll(async () => {
  await watcher?.close();
  await db?.destroy();
  await forum?.stop();
});

describe('CheckpointWatcher', () => {
  it('moves a build only forward, whatever order its notifications come in', async () => {
    const { rows } = await db.raw<{ rows: { name: string; version: number; build: number; tx: string; pos: string }[] }>(
      `SELECT name, version, build, tx::text AS tx, pos::text AS pos FROM projections.checkpoints WHERE state = 'live' AND error IS NULL`,
    );
    expect(rows.length).toBeGreaterThan(1);
    const ahead = { transactionId: BigInt(rows[0]!.tx) + 1000n, globalPosition: 1n };
    const token = (p: { transactionId: bigint; globalPosition: bigint }) => `${p.transactionId}.${p.globalPosition}`;
    expect(watcher.reached(ahead)).toBe(false);
    for (const row of rows) watcher.notified(`${buildSchema(row)}:${token(ahead)}`);
    expect(watcher.reached(ahead)).toBe(true);
    const version = watcher.version();
    // the NOTIFY of an earlier batch arrives after
    watcher.notified(`${buildSchema(rows[0]!)}:${rows[0]!.tx}.${rows[0]!.pos}`);
    expect(watcher.reached(ahead)).toBe(true);
    expect(watcher.version()).toBe(version);
    // and a refresh from the table keeps what was heard
    await watcher.refresh();
    expect(watcher.reached(ahead)).toBe(true);
  });

  it("tells by NOTIFY what the users read model holds: unchanged while the users projection only passes others' events by, changed by an event of its own", async () => {
    // a watcher of its own: the one above was told of positions no build has reached
    const listening = new CheckpointWatcher(forum.databaseUrl, createLogger('watcher-test', 'silent'));
    await listening.start();
    onTestFinished(() => listening.close());
    const member = await forum.newUser('Watched Member');
    await forum.register(member.token);
    const heard = async (position: string) => {
      const [tx, pos] = position.split('.').map(BigInt) as [bigint, bigint];
      expect(await listening.waitFor({ transactionId: tx, globalPosition: pos }, 10_000)).toBe(true);
      return { version: listening.version(), users: listening.changeOf('users') };
    };
    const post = await forum.call<{ id: string; position: string }>('POST', '/api/posts', {
      token: member.token,
      body: { title: 'Passed by', description: 'Not a user', tags: [] },
      expect: 201,
    });
    const before = await heard(post.position);
    expect(before.users).not.toBeNull();
    const other = await forum.call<{ position: string }>('POST', '/api/posts', {
      token: member.token,
      body: { title: 'Passed by too', description: 'Still not a user', tags: [] },
      expect: 201,
    });
    const passed = await heard(other.position);
    expect(passed.version).not.toBe(before.version);
    expect(passed.users).toBe(before.users);
    const renamed = await forum.call<{ position: string }>('PATCH', '/api/me', { token: member.token, body: { displayName: 'Renamed Member' } });
    expect((await heard(renamed.position)).users).not.toBe(before.users);
  });

  it('takes a notice without a count of applied events (a runner that does not count them) as a change at every move', async () => {
    const { rows } = await db.raw<{ rows: { name: string; version: number; build: number; tx: string; pos: string }[] }>(
      `SELECT name, version, build, tx::text AS tx, pos::text AS pos FROM projections.checkpoints WHERE state = 'live' AND error IS NULL AND name = 'users'`,
    );
    const row = rows[0]!;
    const before = watcher.changeOf('users');
    watcher.notified(`${buildSchema(row)}:${BigInt(row.tx) + 2000n}.1`);
    const moved = watcher.changeOf('users');
    expect(moved).not.toBe(before);
    watcher.notified(`${buildSchema(row)}:${BigInt(row.tx) + 2001n}.1`);
    expect(watcher.changeOf('users')).not.toBe(moved);
  });

  it("with a standby, a notice is only a hint: a position counts once the standby's own checkpoints show it", async () => {
    // the forum's database stands in for the standby: what counts is what its table says, never the notice
    const onStandby = new CheckpointWatcher(forum.databaseUrl, createLogger('watcher-test', 'silent'), { standbyUrl: forum.databaseUrl });
    await onStandby.start();
    onTestFinished(() => onStandby.close());
    const { rows } = await db.raw<{ rows: { name: string; version: number; build: number; tx: string; pos: string }[] }>(
      `SELECT name, version, build, tx::text AS tx, pos::text AS pos FROM projections.checkpoints WHERE state = 'live' AND error IS NULL`,
    );
    const ahead = { transactionId: BigInt(rows[0]!.tx) + 1000n, globalPosition: 1n };
    const version = onStandby.version();
    for (const row of rows) onStandby.notified(`${buildSchema(row)}:${ahead.transactionId}.${ahead.globalPosition}`);
    expect(onStandby.reached(ahead)).toBe(false);
    expect(onStandby.version()).toBe(version);
    expect(onStandby.standbyBehind()).toBeGreaterThan(0);
    expect(await onStandby.waitFor(ahead, 300)).toBe(false);

    const member = await forum.newUser('Standby Reader');
    await forum.register(member.token);
    const post = await forum.call<{ position: string }>('POST', '/api/posts', {
      token: member.token,
      body: { title: 'Seen on the standby', description: 'Its checkpoints show it', tags: [] },
      expect: 201,
    });
    expect(await onStandby.waitForToken(post.position, 10_000)).toBe(true);
    expect(watcher.standbyBehind()).toBeNull();
  });
});
