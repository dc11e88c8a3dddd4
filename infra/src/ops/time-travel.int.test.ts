import { evolvePost, initialPostState } from '@forum/command-service';
import {
  compareLogPositions,
  parsePositionToken,
  positionToken,
  postStream,
  type History,
  type HistoryStates,
  type PostEvent,
  type Snapshot,
  type StateAt,
} from '@forum/contracts';
import { allProjections } from '@forum/projections';
import { snapshotSchema } from '@forum/projections/snapshot';
import { compareWithReplay, verifyReport } from '@forum/projections/verify';
import { matching } from '@forum/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runForumctl } from './forumctl.ts';
import { expectStatus } from '../testing/expect-status.ts';
import { startTestForum, type NewUser, type TestForum } from '../testing/forum.ts';

/**
 * Time travel (docs/operations/time-travel.md): `forumctl asof` folds an entity's stream up to a
 * position, `forumctl snapshot` builds every read model up to one into a read-only schema; both
 * against the whole forum running, its log growing after the position they are asked for.
 */
let forum: TestForum;
let ann: NewUser;
let bob: NewUser;
let annPost: string;
/** After Ann's post was written, before its edit. */
let created: string;
/** The moment of the snapshots: after the edit, Bob's comment and vote; before the post written after it and Ann's erasure. */
let p: string;

async function ctl(args: string[]) {
  let out = '';
  let err = '';
  const code = await runForumctl(args, forum.databaseUrl, { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

const positionOf = (answer: unknown) => (answer as { position: string }).position;

beforeAll(async () => {
  forum = await startTestForum();
  ann = await forum.newUser('Ann Quetzal');
  bob = await forum.newUser('Bob Crow');
  await forum.register(ann.token);
  await forum.register(bob.token);
  const post = await forum.call<{ id: string; position: string }>('POST', '/api/posts', {
    token: ann.token,
    body: { title: 'Ann on owls', description: 'Owls are night birds.', tags: [] },
    expect: 201,
  });
  annPost = post.id;
  created = post.position;
  await forum.call('PATCH', `/api/posts/${annPost}`, { token: ann.token, body: { title: 'Ann on owls, edited' } });
  await forum.call('POST', '/api/comments', { token: bob.token, body: { postId: annPost, text: 'Bob likes owls.' }, expect: 201 });
  p = positionOf(await forum.call('PUT', `/api/posts/${annPost}/vote`, { token: bob.token, body: { vote: 'up' } }));
  // the log goes on after P
  await forum.call('POST', '/api/posts', { token: bob.token, body: { title: 'Written after P', description: 'Later.', tags: [] }, expect: 201 });
}, 120_000);
afterAll(async () => {
  await forum?.stop();
});

describe('forumctl asof', () => {
  it("prints a post's state as of a position: its stream folded up to there, and no further", async () => {
    const asOf = async (moment: string) => {
      const run = await ctl(['asof', moment, '--post', annPost, '--json']);
      expect(run.code, run.err).toBe(0);
      return JSON.parse(run.out) as StateAt;
    };
    const { events } = await forum.store.readStream(postStream(annPost));
    const then = await asOf(created);
    // the post's own event at or before the command's (which ends with the author's PostAuthored)
    expect(then).toMatchObject({ kind: 'post', id: annPost, at: created, position: positionToken(events[0]!.position) });
    expect(then.state).toMatchObject({ status: 'created', title: 'Ann on owls', authorId: ann.id, revision: { number: 1 } });
    const now = await asOf(p);
    expect(now.state).toMatchObject({ status: 'created', title: 'Ann on owls, edited' });
    // each equals the write side's fold of the post's stream up to its position
    for (const answer of [then, now]) {
      const upTo = parsePositionToken(answer.at)!;
      const folded = events
        .filter((e) => compareLogPositions(e.position, upTo) <= 0)
        .reduce((state, e) => evolvePost(state, { type: e.type, data: e.data } as PostEvent), initialPostState);
      expect(answer.state).toEqual(JSON.parse(JSON.stringify(folded)));
    }
    // a plain global position names the same event as its token
    expect(await asOf(String(parsePositionToken(created)!.globalPosition))).toEqual(then);
    // a time: the last event at or before it
    expect((await asOf(new Date().toISOString())).state).toMatchObject({ title: 'Ann on owls, edited' });
    const table = await ctl(['asof', created, '--post', annPost]);
    expect(table.out).toMatch(new RegExp(`^post ${annPost} as of ${created.replace('.', '\\.')} \\(.*\\):\nafter event #1 of its stream, PostCreated at`));
  });

  it('refuses what is not a moment of the log, an unknown entity and missing arguments, with a message and a non-zero exit', async () => {
    const last = Number(parsePositionToken(p)!.globalPosition);
    const cases: [string[], number, RegExp][] = [
      [['asof', 'yesterday', '--post', annPost], 1, /^Not a time nor a position: yesterday \(give an ISO time/],
      [['asof', '2026-13-45T99:00:00Z', '--post', annPost], 1, /^Not a time nor a position/],
      [['asof', String(last + 1_000_000), '--post', annPost], 1, new RegExp(`^Position ${last + 1_000_000} is beyond the log: its last event is at \\d+`)],
      [['asof', '2999-01-01T00:00:00Z', '--post', annPost], 1, /^2999-01-01T00:00:00.000Z is in the future/],
      [['asof', '1970-01-02T00:00:00Z', '--post', annPost], 1, /^The log has no event at or before 1970-01-02/],
      [['asof', p, '--post', '00000000-0000-4000-8000-000000000000'], 1, /^No post with the id 00000000-0000-4000-8000-000000000000/],
      [['asof', p, '--user', 'nobody@forum.test'], 1, /^No registered user with the email nobody@forum.test/],
      [['asof', p], 2, /^asof needs a time or a position, and --post <id> or --user <email or id>/],
      [['asof', '--post', annPost], 2, /^asof needs/],
    ];
    for (const [args, code, message] of cases) {
      const run = await ctl(args);
      expect({ args, code: run.code, err: run.err }).toEqual({ args, code, err: matching(message) });
      expect(run.out).toBe('');
    }
  });
});

describe("the console's time travel (admins only)", () => {
  it("answers, for each event of a post's history, the state after it and what it changed", async () => {
    const { token } = await forum.demoAdmin();
    const history = await expectStatus<History>(forum.api(`/api/admin/history/post/${annPost}`, { token }));
    const { states } = await expectStatus<HistoryStates>(forum.api(`/api/admin/history/post/${annPost}/states`, { token }));
    expect(states.map((s) => s.position)).toEqual(history.events.map((e) => e.position));
    const byType = Object.fromEntries(history.events.map((e, i) => [e.type, states[i]!]));
    expect(byType.PostCreated!.changes).toEqual(
      expect.arrayContaining([
        { change: 'changed', path: 'status', before: 'none', after: 'created' },
        { change: 'added', path: 'title', after: 'Ann on owls' },
      ]),
    );
    // (the author's quick fix folds into the first revision: only the title changes)
    expect(byType.PostEdited!.changes).toEqual([{ change: 'changed', path: 'title', before: 'Ann on owls', after: 'Ann on owls, edited' }]);
    // an event of another stream (Bob's vote) leaves the post's own state as it was
    expect(byType.VoteCast).toMatchObject({ changes: [], state: { title: 'Ann on owls, edited' } });
    const at = await expectStatus<StateAt>(forum.api(`/api/admin/history/post/${annPost}/state?at=${created}`, { token }));
    expect(at).toMatchObject({ kind: 'post', id: annPost, at: created, state: { title: 'Ann on owls' } });
    const before = await expectStatus<StateAt>(forum.api(`/api/admin/history/post/${annPost}/state?at=1.1`, { token }));
    expect(before).toMatchObject({ position: null, state: { status: 'none' } });
  });

  it('refuses visitors (401), members (403) and what is not a position or an entity (400, 404)', async () => {
    const { token } = await forum.demoAdmin();
    for (const path of [`/api/admin/history/post/${annPost}/states`, `/api/admin/history/post/${annPost}/state?at=${p}`, '/api/admin/snapshots']) {
      expect((await forum.api(path)).status, path).toBe(401);
      expect(await expectStatus(forum.api(path, { token: bob.token }), 403), path).toMatchObject({ error: { code: 'FORBIDDEN' } });
      expect((await forum.api(path, { token })).status, path).toBe(200);
    }
    expect(await expectStatus(forum.api(`/api/admin/history/post/${annPost}/state?at=yesterday`, { token }), 400)).toMatchObject({
      error: { code: 'VALIDATION_FAILED', details: { at: ['Not a position of the log'] } },
    });
    expect((await forum.api(`/api/admin/history/post/${annPost}/state`, { token })).status).toBe(400);
    expect((await forum.api(`/api/admin/history/post/00000000-0000-4000-8000-000000000000/state?at=1.1`, { token })).status).toBe(404);
    expect((await forum.api(`/api/admin/history/post/00000000-0000-4000-8000-000000000000/states`, { token })).status).toBe(404);
  });
});

describe('forumctl snapshot', () => {
  let before: Snapshot;

  it('builds every read model as of P: each equals a replay of the log up to P, nothing after P in it', { timeout: 180_000 }, async () => {
    const run = await ctl(['snapshot', p, '--name', 'audit_one']);
    expect(run.code, run.err).toBe(0);
    expect(run.out).toMatch(/^snapshot audit_one: every read model as of .* read-only, query it in the schema snapshot_audit_one/);
    expect(run.err).toContain(`${allProjections.length}/${allProjections.length} read models built`);
    const position = parsePositionToken(p)!;
    for (const projection of allProjections) {
      // an independent replay: event by event through `apply`, never the staged one the snapshot used
      const result = await compareWithReplay(
        forum.db,
        forum.store,
        projection,
        { schema: `snapshot_audit_one__${projection.name}`, position },
        { staged: false },
      );
      expect(result.ok, verifyReport(result)).toBe(true);
      expect(result.tables.length).toBeGreaterThan(0);
    }
    // the read models' views, named as in `read`, show the forum as it was at P
    const titles = (await forum.db.raw<{ rows: { title: string }[] }>(`SELECT title FROM snapshot_audit_one.posts ORDER BY title`)).rows.map((r) => r.title);
    expect(titles).toContain('Ann on owls, edited');
    expect(titles).not.toContain('Written after P');
    const live = (await forum.db.raw<{ rows: { title: string }[] }>(`SELECT title FROM read.posts`)).rows.map((r) => r.title);
    expect(live).toContain('Written after P');
    const list = await ctl(['snapshot', '--list', '--json']);
    expect(list.code, list.err).toBe(0);
    before = (JSON.parse(list.out) as Snapshot[]).find((s) => s.name === 'audit_one')!;
    expect(before).toMatchObject({ schema: 'snapshot_audit_one', position: p, state: 'ready', built: allProjections.length, percent: 100, erasedSince: 0 });
    expect(before.bytes).toBeGreaterThan(0);
    const { token } = await forum.demoAdmin();
    expect(await expectStatus<Snapshot[]>(forum.api('/api/admin/snapshots', { token }))).toEqual([before]);
    const table = await ctl(['snapshot', '--list']);
    expect(table.out).toMatch(/^name\s+position\s+time\s+state\s+progress\s+size\s+erased since\s+schema\n/);
    expect(table.out).toMatch(
      new RegExp(
        `audit_one\\s+${p.replace('.', '\\.')}\\s+\\S+\\s+ready\\s+${allProjections.length}/${allProjections.length}\\s+[\\d.]+ MB\\s+0\\s+snapshot_audit_one`,
      ),
    );
  });

  it('is read-only in PostgreSQL, for the role that owns it too', async () => {
    const attempts = [
      `INSERT INTO snapshot_audit_one__posts.posts DEFAULT VALUES`,
      `UPDATE snapshot_audit_one__posts.posts SET title = 'Tampered'`,
      `DELETE FROM snapshot_audit_one__posts.posts`,
      `TRUNCATE snapshot_audit_one__users.users`,
    ];
    for (const statement of attempts) {
      await expect(forum.db.raw(statement), statement).rejects.toMatchObject({ code: '25006', message: matching(/snapshots are read-only/) });
    }
  });

  it("keeps erased data erased: a snapshot built after a member's erasure holds nothing of theirs, an older one is marked", { timeout: 180_000 }, async () => {
    const annAt = (await ctl(['asof', p, '--user', ann.id, '--json'])).out;
    expect(annAt).toContain(ann.email);
    await forum.call('DELETE', '/api/me', { token: ann.token, body: { content: 'keep' } });
    // the same moment, P, before her erasure: what the log showed of her then is gone from it now
    expect(JSON.parse((await ctl(['asof', p, '--user', ann.id, '--json'])).out)).toMatchObject({
      state: { status: 'registered', name: '[erased]', email: '[erased]' },
    });
    const run = await ctl(['snapshot', p, '--name', 'audit_two']);
    expect(run.code, run.err).toBe(0);
    const everything = async (name: string) => {
      const { rows } = await forum.db.raw<{ rows: { schema: string; name: string }[] }>(
        `SELECT schemaname AS schema, tablename AS name FROM pg_tables WHERE schemaname LIKE ? ORDER BY 1, 2`,
        [`${snapshotSchema(name)}\\_\\_%`],
      );
      expect(rows.length).toBeGreaterThan(allProjections.length);
      let text = '';
      for (const table of rows) text += JSON.stringify((await forum.db.raw<{ rows: unknown[] }>(`SELECT * FROM "${table.schema}"."${table.name}"`)).rows);
      return text;
    };
    const older = await everything('audit_one');
    expect(older).toContain(ann.email);
    const newer = await everything('audit_two');
    expect(newer).toContain('Ann on owls, edited');
    for (const trace of [ann.email, 'Quetzal']) expect(newer).not.toContain(trace);
    expect(newer).toContain(bob.email);
    const list = JSON.parse((await ctl(['snapshot', '--list', '--json'])).out) as Snapshot[];
    expect(list.map((s) => [s.name, s.erasedSince])).toEqual([
      ['audit_two', 0],
      ['audit_one', 1],
    ]);
  });

  it('refuses a name taken, an unknown snapshot, a bad moment; drops one with its schemas', { timeout: 60_000 }, async () => {
    const cases: [string[], number, RegExp][] = [
      [['snapshot', p, '--name', 'audit_one'], 1, /^A snapshot named audit_one exists: forumctl snapshot --drop audit_one first/],
      [['snapshot', p, '--name', 'Bad-Name'], 1, /^A snapshot's name is lower-case letters and digits/],
      [['snapshot', '--drop', 'nothing_here'], 1, /^No snapshot named nothing_here: forumctl snapshot --list shows them/],
      [['snapshot', 'not-a-time'], 1, /^Not a time nor a position: not-a-time/],
      [['snapshot', '99999999999'], 1, /^Position 99999999999 is beyond the log/],
      [['snapshot'], 2, /^snapshot needs a time or a position, --list or --drop <name>/],
    ];
    for (const [args, code, message] of cases) {
      const run = await ctl(args);
      expect({ args, code: run.code, err: run.err }).toEqual({ args, code, err: matching(message) });
    }
    const dropped = await ctl(['snapshot', '--drop', 'audit_one']);
    expect(dropped).toMatchObject({ code: 0, out: 'dropped snapshot audit_one\n' });
    const { rows } = await forum.db.raw<{ rows: unknown[] }>(`SELECT nspname FROM pg_namespace WHERE nspname LIKE 'snapshot\\_audit\\_one%'`);
    expect(rows).toEqual([]);
    expect((JSON.parse((await ctl(['snapshot', '--list', '--json'])).out) as Snapshot[]).map((s) => s.name)).toEqual(['audit_two']);
  });
});
