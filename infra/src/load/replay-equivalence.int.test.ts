import { START } from '@forum/contracts';
import { mentionsIn } from '@forum/contracts/markdown';
import type { EventStore, RecordedEvent } from '@forum/eventstore';
import { allProjections, applyOwn, settleReplay, stageUntil, tablesOf, type Projection } from '@forum/projections';
import type { Knex } from '@forum/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syntheticFixture, type SyntheticFixture } from './synthetic-fixture.ts';

/**
 * The projections fold a batch in memory and write it in a few set-based
 * statements. Whatever the batch size, the read model must be the one that
 * applying the events one at a time gives: a realistic log (registrations then
 * profile changes, posts then votes and deletions, comments then reports and
 * removals, often in one batch; edits of posts and comments by their authors,
 * folded or not, and by an admin with a reason; handles given and changed, follows,
 * preferences, and posts and comments that @mention members) replayed at batch size 1, a few odd sizes and
 * all at once gives identical tables.
 */
let fixture: SyntheticFixture;
let db: Knex;
let store: EventStore;
let log: readonly RecordedEvent[];

beforeAll(async () => {
  // a seed whose log holds every case below (when a change to the generator's draws leaves one out, pick another)
  fixture = await syntheticFixture('replay_equivalence', { events: 2_500, seed: 7 });
  ({ db, store, log } = fixture);
}, 120_000);
afterAll(() => fixture?.close());

let schemas = 0;
/**
 * How a replay goes through the log: the ordinary `apply` (a live build), or
 * the projection's staged replay, set-wise from the log in ranges, settled at
 * the end (a rebuild), or a rebuild that settles a third of the way in,
 * follows the log the ordinary way for a while, and is then restarted
 * (staging again from two thirds) before it settles for good.
 */
type Mode = 'ordinary' | 'staged' | 'restarted' | 'unsettled';

/** Every table of the projection, each row as JSON text, in a stable order. `size`: events per batch, or per staged range. */
async function replay(projection: Projection, events: readonly RecordedEvent[], size: number, mode: Mode = 'ordinary'): Promise<Record<string, string[]>> {
  const schema = `eq_${projection.name}_${++schemas}`;
  const inSchema = <T>(work: (trx: Knex.Transaction) => Promise<T>) =>
    db.transaction(async (trx) => {
      await trx.raw(`SET LOCAL search_path TO "${schema}", public`);
      return work(trx);
    });
  await db.raw(`CREATE SCHEMA "${schema}"`);
  await inSchema((trx) => projection.migrate(trx));
  const ordinary = async (from: number, to: number) => {
    // the one-event batches of the baseline share transactions (the result is the same, the test is faster)
    const perTransaction = size === 1 ? 200 : size;
    for (let i = from; i < to; i += perTransaction) {
      await inSchema(async (trx) => {
        const slice = events.slice(i, Math.min(i + perTransaction, to));
        for (let j = 0; j < slice.length; j += size) await applyOwn(trx, projection, slice.slice(j, j + size));
      });
    }
  };
  const staged = async (from: number, to: number) => {
    const until = events[to - 1]!.position;
    const after = from === 0 ? START : events[from - 1]!.position;
    expect(await stageUntil(store.sql!, projection, { after, until, rangeSize: size }, inSchema)).toEqual(until);
  };
  const third = Math.floor(events.length / 3);
  if (mode === 'ordinary') await ordinary(0, events.length);
  else if (mode === 'restarted') {
    await staged(0, third);
    await inSchema((trx) => settleReplay(trx, projection, store.sql!));
    await ordinary(third, 2 * third);
    await staged(2 * third, events.length);
  } else await staged(0, events.length);
  if (mode === 'staged' || mode === 'restarted') await inSchema((trx) => settleReplay(trx, projection, store.sql!));
  const { rows: tables } = await db.raw<{ rows: { table_name: string }[] }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = ? AND table_type = 'BASE TABLE' AND table_name <> 'migrations' ORDER BY table_name`,
    [schema],
  );
  // what depends on the batches (page anchors) is not compared row for row: it must be consistent
  const derived = new Set((projection.derived?.views ?? []).flatMap((view) => tablesOf(projection.exposes[view]!)));
  if (projection.derived) expect(await inSchema((trx) => projection.derived!.problems(trx)), `${mode}, size ${size}`).toEqual([]);
  const dump: Record<string, string[]> = {};
  for (const { table_name } of tables.filter((t) => !derived.has(t.table_name))) {
    const { rows } = await db.raw<{ rows: { row: string }[] }>(`SELECT to_jsonb(t)::text AS row FROM "${schema}"."${table_name}" t`);
    dump[table_name] = rows.map((r) => r.row).sort();
  }
  await db.raw(`DROP SCHEMA "${schema}" CASCADE`);
  return dump;
}

describe('given a realistic log of 2.5k events', () => {
  it('has the batches that make the orders in question', () => {
    expect(log.length).toBeGreaterThanOrEqual(2_500);
    const types = new Set(log.map((e) => e.type));
    for (const type of [
      'UserRegistered',
      'ProfileUpdated',
      'PostCreated',
      'PostDeleted',
      'VoteCast',
      'CommentAdded',
      'CommentRemoved',
      'CommentReported',
      'UserWarned',
      'PostEdited',
      'CommentEdited',
      'HandleChanged',
      'HandleReleased',
      'PostFollowed',
      'PostUnfollowed',
      'TagFollowed',
      'TagUnfollowed',
      'NotificationPreferencesChanged',
      'AccountErased',
    ]) {
      expect(types.has(type), type).toBe(true);
    }
  });

  it('has a member @mentioned in a comment on a post they follow whose author is then erased with their content', () => {
    const handles = new Map<string, string>();
    const authors = new Map<string, string>();
    const followers = new Map<string, Set<string>>();
    const unfollowed = new Set<string>();
    const mentionedFollowers: { postId: string; userId: string }[] = [];
    const found: { postId: string; userId: string }[] = [];
    for (const { type, data } of log as readonly { type: string; data: Record<string, string> }[]) {
      if (type === 'HandleChanged') handles.set(data.handle!.toLowerCase(), data.userId!);
      else if (type === 'PostCreated') {
        authors.set(data.postId!, data.authorId!);
        followers.set(data.postId!, new Set([data.authorId!]));
      } else if (type === 'PostFollowed') followers.get(data.postId!)?.add(data.userId!);
      else if (type === 'PostUnfollowed') {
        followers.get(data.postId!)?.delete(data.userId!);
        unfollowed.add(`${data.postId} ${data.userId}`);
      } else if (type === 'CommentAdded') {
        const following = followers.get(data.postId!)!;
        for (const handle of mentionsIn(data.text!)) {
          const userId = handles.get(handle);
          if (userId && userId !== data.authorId && following.has(userId)) mentionedFollowers.push({ postId: data.postId!, userId });
        }
        if (!unfollowed.has(`${data.postId} ${data.authorId}`)) following.add(data.authorId!);
      } else if (type === 'AccountErased' && data.content === 'erased')
        found.push(...mentionedFollowers.filter(({ postId }) => authors.get(postId) === data.userId));
    }
    expect(found.length).toBeGreaterThan(0);
  });

  it('has what the notifications fan out: replies, comments on followed posts, posts in followed tags, @mentions of members, staff’s actions', async () => {
    const notifications = allProjections.find((p) => p.name === 'notifications')!;
    const kinds = new Set((await replay(notifications, log, log.length)).notifications!.map((row) => (JSON.parse(row) as { kind: string }).kind));
    expect([...kinds].sort()).toEqual(['followed-post', 'followed-tag', 'mention', 'moderation', 'reply', 'warning']);
  });

  it.each(allProjections.map((p) => [p.name, p] as const))(
    'when %s replays it in batches of 1, 7, 333 or all at once, then its tables are the same',
    async (_name, projection) => {
      const baseline = await replay(projection, log, 1);
      expect(Object.values(baseline).some((rows) => rows.length > 0)).toBe(true);
      for (const size of [7, 333, log.length]) expect(await replay(projection, log, size), `batch ${size}`).toEqual(baseline);
    },
    120_000,
  );

  it.each(allProjections.filter((p) => p.replay).map((p) => [p.name, p] as const))(
    'when %s replays it staged (as a rebuild does) and settles, in ranges of 7, 333 or all at once, or settles, goes on and restarts, then its tables are the ordinary ones',
    async (_name, projection) => {
      const baseline = await replay(projection, log, 333);
      // before it settles, the staged replay has recorded facts (in tables that are empty once it has)
      const unsettled = await replay(projection, log, 333, 'unsettled');
      expect(Object.entries(unsettled).filter(([table, rows]) => table.startsWith('replay_') && rows.length > 0).length).toBeGreaterThan(0);
      expect(unsettled).not.toEqual(baseline);
      for (const size of [7, 333, log.length]) expect(await replay(projection, log, size, 'staged'), `staged, ranges of ${size}`).toEqual(baseline);
      for (const size of [7, 333]) expect(await replay(projection, log, size, 'restarted'), `restarted, ranges of ${size}`).toEqual(baseline);
    },
    120_000,
  );
});
