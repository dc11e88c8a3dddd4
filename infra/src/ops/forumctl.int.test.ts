import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import {
  HEADER_MIN_POSITION,
  HISTORY_PAGE_SIZE,
  positionToken,
  voteStream,
  type AuditPage,
  type HistoryEntry,
  type Me,
  type PostsPage,
} from '@forum/contracts';
import { startFeedRelay, type FeedMessage } from '@forum/feed';
import { createLogger } from '@forum/platform';
import { anyNumber, arrayContaining, createTestDatabase, matching, objectContaining, testEventMetadata, waitFor } from '@forum/platform/testing';
import { postsProjection, usersProjection } from '@forum/projections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runForumctl } from './forumctl.ts';
import { editAppend } from '../testing/edits.ts';
import { startTestForum, type TestForum } from '../testing/forum.ts';

let forum: TestForum;
let dir: string;
beforeAll(async () => {
  forum = await startTestForum();
  dir = await mkdtemp(path.join(os.tmpdir(), 'forumctl-'));
});
afterAll(async () => {
  await forum?.stop();
  await rm(dir, { recursive: true, force: true });
});

async function ctl(args: string[], url = forum.databaseUrl) {
  let out = '';
  let err = '';
  const code = await runForumctl(args, url, { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

describe('forumctl', () => {
  it('export → import into an empty store → export is byte-identical, positions and metadata kept', async () => {
    const user = await forum.newUser('Exporter');
    for (let i = 0; i < 3; i++)
      await forum.api('/api/posts', { method: 'POST', token: user.token, json: { title: `Kept ${i} "quoted" é`, description: 'x', tags: ['React'] } });
    const first = path.join(dir, 'first.ndjson');
    expect((await ctl(['export', '--out', first])).code).toBe(0);
    const target = await createTestDatabase('import');
    try {
      const imported = await ctl(['import', first], target.url);
      expect(imported.code, imported.err).toBe(0);
      const second = path.join(dir, 'second.ndjson');
      expect((await ctl(['export', '--out', second], target.url)).code).toBe(0);
      const [a, b] = await Promise.all([readFile(first, 'utf8'), readFile(second, 'utf8')]);
      expect(b).toBe(a);
      expect(a.split('\n').filter(Boolean).length).toBeGreaterThan(20);
      // a second import into the now non-empty store is refused and changes nothing
      const again = await ctl(['import', first], target.url);
      expect(again.code).not.toBe(0);
      const third = path.join(dir, 'third.ndjson');
      await ctl(['export', '--out', third], target.url);
      expect(await readFile(third, 'utf8')).toBe(a);
    } finally {
      await target.drop();
    }
  });

  it('exports a range of positions', async () => {
    const { out } = await ctl(['export', '--from', '2', '--to', '4']);
    expect(
      out
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { position: number }).position),
    ).toEqual([2, 3, 4]);
  });

  it('make-admin makes a registered user an admin by an event with the operator as actor', async () => {
    const user = await forum.newUser('Promoted');
    await forum.register(user.token);
    const made = await ctl(['make-admin', user.email]);
    expect(made.code, made.err).toBe(0);
    const { events } = await forum.store.readStream(`user-${user.id}`);
    expect(events.at(-1)).toMatchObject({ type: 'AdminRoleGranted', data: { reason: 'operator' }, metadata: { actorId: matching(/^operator:/) } });
    const position = /event at (\S+),/.exec(made.out)![1]!;
    expect(((await (await forum.api('/api/me', { token: user.token, headers: { [HEADER_MIN_POSITION]: position } })).json()) as Me).role).toBe('admin');
    expect((await ctl(['make-admin', user.email])).out).toContain('was an admin already');
    expect((await ctl(['make-admin', 'nobody@forum.test'])).code).toBe(1);
  });

  it("history shows a user's or a post's audit trail with positions, actors and correlation ids", async () => {
    const user = await forum.newUser('Historian');
    const created = await forum.api('/api/posts', {
      method: 'POST',
      token: user.token,
      headers: { 'X-Correlation-Id': 'corr-history' },
      json: { title: 'Audited', description: 'x', tags: [] },
    });
    const { id } = (await created.json()) as { id: string };
    const edited = await forum.api(`/api/posts/${id}`, { method: 'PATCH', token: user.token, json: { title: 'Audited, edited' } });
    expect(edited.status).toBe(200);
    // the log as its readers see it: once no transaction older than the edit's is still running
    const post = await waitFor(
      () => ctl(['history', '--post', id, '--json']),
      (answer) => answer.code === 0 && (JSON.parse(answer.out) as unknown[]).length === 2,
    );
    expect(JSON.parse(post.out)).toEqual([
      objectContaining({ type: 'PostCreated', actor: user.id, correlationId: 'corr-history', version: 1 }),
      objectContaining({ type: 'PostEdited', actor: user.id, version: 2, data: objectContaining({ title: 'Audited, edited', revision: 1 }) }),
    ]);
    const table = await ctl(['history', '--user', user.email]);
    expect(table.out).toMatch(/UserRegistered[\s\S]*PostAuthored[\s\S]*PostEdited/);
    expect((await ctl(['history', '--user', 'nobody@forum.test'])).code).toBe(1);
  });

  it('#28.3 forumctl history prints every page of what a user did and what was done about them, or the first --limit', async () => {
    const user = await forum.newUser('Busy Voter');
    await forum.register(user.token);
    // more of their votes than one page of the history holds, straight into the log as the forum writes them
    const votes = HISTORY_PAGE_SIZE + 5;
    const metadata = { actorId: user.id, correlationId: randomUUID(), causationId: null, requestId: null, schemaVersion: 1 };
    await forum.store.append(
      Array.from({ length: votes }, () => {
        const postId = randomUUID();
        return {
          streamId: voteStream(postId, user.id),
          expectedVersion: 'no_stream' as const,
          events: [{ type: 'VoteCast', data: { postId, userId: user.id, previous: 'none', vote: 'up', at: new Date().toISOString() }, metadata }],
        };
      }),
    );
    const { id: postId } = (await (
      await forum.api('/api/posts', { method: 'POST', token: user.token, json: { title: 'After the votes', description: 'x', tags: [] } })
    ).json()) as { id: string };
    const printed = async (args: string[]) => {
      const run = await ctl(['history', ...args]);
      expect(run.code, run.err).toBe(0);
      return run.out;
    };
    const all = await waitFor(
      async () => JSON.parse(await printed(['--user', user.email, '--json'])) as HistoryEntry[],
      (events) => events.at(-1)?.type === 'PostAuthored',
    );
    expect(all.map((e) => e.type)).toEqual([
      'HandleClaimed',
      'UserRegistered',
      'HandleChanged',
      ...Array<string>(votes).fill('VoteCast'),
      'PostCreated',
      'PostAuthored',
    ]);
    expect(all.every((e) => e.actor === user.id)).toBe(true);
    // by id too (an erased user's email is gone), and the first --limit only
    expect(JSON.parse(await printed(['--user', user.id, '--json']))).toEqual(all);
    expect(JSON.parse(await printed(['--user', user.id, '--json', '--limit', '3']))).toEqual(all.slice(0, 3));
    const table = await printed(['--user', user.email, '--limit', '2']);
    expect(table.split('\n').slice(0, 2)).toEqual([`user ${user.id}: 2 events`, matching(/^position\s+at\s+stream\s+#\s+type\s+actor\s+correlation\s+data$/)]);
    expect(table).toContain(`user-${user.id}`);
    const post = await printed(['--post', postId]);
    expect(post).toMatch(new RegExp(`^post ${postId}: 1 event\n`));
    expect((await ctl(['history', '--user', user.id, '--limit', '0'])).code).toBe(2);
  });

  it('verify replays the log into a scratch schema and finds a hand-altered read-model row', { timeout: 60_000 }, async () => {
    const user = await forum.newUser('Verifier');
    const created = await forum.api('/api/posts', { method: 'POST', token: user.token, json: { title: 'Original title', description: 'x', tags: [] } });
    const { id } = (await created.json()) as { id: string };
    // edited by its author, and again by an admin with a reason (a revision of its own), as the command side writes edits
    const edit = (revision: number, editorId: string, reason?: string) =>
      editAppend({
        type: 'PostEdited',
        data: {
          postId: id,
          authorId: user.id,
          editorId,
          title: 'Original title',
          description: `x, revision ${revision}`,
          tags: [],
          ...(reason && { reason }),
          revision,
          editedAt: new Date().toISOString(),
        },
      });
    const edited = await forum.store.append([edit(2, user.id)]);
    await forum.store.append([edit(3, 'an-admin', 'Tidied up')]);
    await forum.api('/api/posts', { headers: { [HEADER_MIN_POSITION]: positionToken(edited.lastPosition) } });
    const clean = await ctl(['verify']);
    expect(clean.code, clean.err).toBe(0);
    expect(clean.out).toMatch(/^posts: ok \(\d+ rows in 9 tables/m);
    expect(clean.out).toMatch(/^users: ok/m);

    const schema = (JSON.parse((await ctl(['status', '--json'])).out) as { name: string; schema: string }[]).find((s) => s.name === 'posts')!.schema;
    await forum.db.raw(`UPDATE "${schema}".posts SET title = 'Tampered title' WHERE id = ?`, [id]);
    try {
      const tampered = await ctl(['verify', 'posts']);
      expect(tampered.code).toBe(1);
      expect(tampered.err).toContain('posts: DIFFERS');
      expect(tampered.err).toMatch(/posts \(posts\): 2 differing rows/);
      expect(tampered.err).toMatch(/live only: +\{.*"title": ?"Tampered title"/);
      expect(tampered.err).toMatch(/replay only: +\{.*"title": ?"Original title"/);
    } finally {
      await forum.db.raw(`UPDATE "${schema}".posts SET title = 'Original title' WHERE id = ?`, [id]);
    }
    expect((await ctl(['verify', 'nonsense'])).code).toBe(2);
  });

  it('rebuild replays a projection into a new build while the forum runs, and reads switch to it', { timeout: 120_000 }, async () => {
    const user = await forum.newUser('Rebuilder');
    const created = await forum.api('/api/posts', { method: 'POST', token: user.token, json: { title: 'Before the rebuild', description: 'x', tags: [] } });
    const { id } = (await created.json()) as { id: string };
    const edit = {
      postId: id,
      authorId: user.id,
      editorId: user.id,
      title: 'Edited before the rebuild',
      description: 'y',
      tags: [],
      revision: 2,
      editedAt: new Date().toISOString(),
    };
    const position = positionToken((await forum.store.append([editAppend({ type: 'PostEdited', data: edit })])).lastPosition);
    const before = (await (await forum.api('/api/posts', { headers: { [HEADER_MIN_POSITION]: position } })).json()) as PostsPage;

    const rebuilt = await ctl(['rebuild', 'posts', 'users']);
    expect(rebuilt.code, rebuilt.err).toBe(0);
    expect(rebuilt.out).toMatch(
      new RegExp(`rebuilt posts v${postsProjection.version} build \\d+, users v${usersProjection.version} build \\d+: reads switched`),
    );
    const status = JSON.parse((await ctl(['status', '--json'])).out) as { name: string; build: number; state: string }[];
    expect(status.filter((s) => s.name === 'posts')).toEqual([objectContaining({ state: 'live', build: anyNumber })]);
    expect(status.find((s) => s.name === 'posts')!.build).toBeGreaterThan(1);

    // the forum reads from the new build and goes on following the log with it; the edit is in it
    const read = (await (await forum.api('/api/posts')).json()) as PostsPage;
    expect(read.totalCount).toBe(before.totalCount);
    expect(read.posts.find((p) => p._id === id)).toMatchObject({ title: 'Edited before the rebuild', revisionCount: 2, editedAt: edit.editedAt });
    const after = await forum.api('/api/posts', { method: 'POST', token: user.token, json: { title: 'After the rebuild', description: 'x', tags: [] } });
    const next = (await after.json()) as { position: string };
    expect(((await (await forum.api('/api/posts', { headers: { [HEADER_MIN_POSITION]: next.position } })).json()) as PostsPage).totalCount).toBe(
      before.totalCount + 1,
    );
    expect((await ctl(['verify', 'posts', 'users'])).code).toBe(0);
    expect((await ctl(['rebuild'])).code).toBe(2);

    // each request is in the staff action log, the operator its actor
    const { token: admin } = await forum.demoAdmin();
    const log = await forum.api('/api/admin/audit?type=ProjectionRebuildRequested', { token: admin, headers: { [HEADER_MIN_POSITION]: next.position } });
    const operator = `operator:${os.userInfo().username}`;
    expect(((await log.json()) as AuditPage).entries.map((e) => [e.actor.id, e.target.id, e.summary])).toEqual([
      [operator, 'users', matching(/^Started a rebuild of users \(users v\d+ build \d+\)$/)],
      [operator, 'posts', matching(/^Started a rebuild of posts \(posts v\d+ build \d+\)$/)],
    ]);
  });

  it('status lists every projection with its checkpoint and lag', async () => {
    const status = await ctl(['status', '--json']);
    expect(status.code).toBe(0);
    const rows = JSON.parse(status.out) as { name: string; state: string; lag: number }[];
    expect(rows.map((r) => r.name)).toEqual(arrayContaining(['posts', 'tags', 'users']));
    expect(rows.every((r) => r.state === 'live')).toBe(true);
    expect((await ctl(['nonsense'])).code).toBe(2);
  });

  it('#44 status shows each feed: its checkpoint, the head, the lag, what it published and whether a relay holds its lock', { timeout: 60_000 }, async () => {
    type FeedRow = {
      kind: string;
      name: string;
      checkpoint: string;
      head: string;
      lag: number;
      published: string;
      relay: { pid: number } | null;
      standbys: number;
    };
    const feeds = async () => (JSON.parse((await ctl(['status', '--json'])).out) as FeedRow[]).filter((row) => row.kind === 'feed');
    // no feed ever ran on this forum (no KAFKA_BROKERS): status says nothing of one
    expect((await ctl(['status'])).out).not.toMatch(/feed|relay/i);
    expect(await feeds()).toEqual([]);

    const delivered: FeedMessage[] = [];
    const publisher = { publish: (messages: readonly FeedMessage[]) => Promise.resolve(void delivered.push(...messages)), close: () => Promise.resolve() };
    const relays = [0, 1].map(() =>
      startFeedRelay({ store: forum.store, databaseUrl: forum.databaseUrl, publisher, logger: createLogger('forumctl-test', 'silent') }),
    );
    try {
      const [caughtUp] = await waitFor(feeds, (rows) => rows.length === 1 && rows[0]!.lag === 0 && rows[0]!.standbys === 1, 20_000);
      const head = await forum.store.head();
      expect(caughtUp).toEqual({
        kind: 'feed',
        name: 'kafka',
        checkpoint: positionToken(head),
        head: head.globalPosition.toString(),
        lag: 0,
        published: String(delivered.length),
        updatedAt: matching(/^\d{4}-/),
        relay: { pid: anyNumber, address: matching(/^127\.0\.0\.1$|^::1$/) },
        standbys: 1,
      });
      const text = await ctl(['status']);
      expect(text.code).toBe(0);
      const lines = text.out.split('\n');
      const header = lines.findIndex((line) => line.startsWith('feed '));
      expect(lines[header]).toMatch(/^feed\s+checkpoint\s+head\s+lag\s+published\s+relay\s+standbys$/);
      expect(lines[header + 2]).toMatch(
        new RegExp(
          `^kafka\\s+${positionToken(head).replace('.', '\\.')}\\s+${head.globalPosition}\\s+0\\s+${delivered.length}\\s+pid ${caughtUp!.relay!.pid}\\b.*\\s1$`,
        ),
      );
    } finally {
      for (const relay of await Promise.all(relays)) await relay.stop();
    }
    // no relay now, and the log goes on: the feed falls behind
    await forum.store.append([
      { streamId: `post-${randomUUID()}`, expectedVersion: 'no_stream', events: [{ type: 'PostVoted', data: {}, metadata: testEventMetadata() }] },
    ]);
    const [behind] = await waitFor(feeds, (rows) => rows[0]!.lag > 0);
    expect(behind).toMatchObject({ relay: null, standbys: 0 });
    expect((await ctl(['status'])).out).toMatch(/^kafka\s.*\s[1-9]\d*\s+\d+\s+none\s+0$/m);
    // as it was: this forum has no feed
    await forum.db.raw('DROP SCHEMA feed CASCADE');
  });
});
