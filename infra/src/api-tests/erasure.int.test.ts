import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  DELETED_USER_NAME,
  ERASED_MARK,
  HEADER_MIN_POSITION,
  HEADER_READ_BEHIND,
  type AuditPage,
  type CommentItem,
  type PostDetail,
  type PostsPage,
  type TopVotedUser,
} from '@forum/contracts';
import { runForumctl } from '../ops/forumctl.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../testing/forum.ts';
import { waitFor } from '@forum/platform/testing';

/**
 * A member erases themselves (docs/security/erasure.md): afterwards nothing of
 * their name, email and photo (and, if they chose so, their text) is left in the event log's
 * table, the read models, the identity realm's tables or the API's answers; rebuild and verify
 * succeed; history and export say erased; the realm forgets the account; their token is refused.
 */
let forum: TestForum;
let dir: string;
let admin: { id: string; token: string };

beforeAll(async () => {
  // no browser signs out here: the realm's account goes at once
  forum = await startTestForum({ IDENTITY_REMOVAL_GRACE_MS: '0' });
  dir = await mkdtemp(path.join(os.tmpdir(), 'erasure-'));
  admin = await forum.demoAdmin();
});
afterAll(async () => {
  await forum?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const PASSWORD = 'Secret#2026';

/** A member with a distinctive name, email and photo: what must not be found anywhere afterwards. */
async function member(first: string) {
  const tag = randomBytes(4).toString('hex');
  const person = {
    name: `${first} Quetzal${tag}`,
    email: `${first.toLowerCase()}-${tag}@forum.test`,
    photo: `https://img.test/${first.toLowerCase()}-${tag}.png`,
  };
  const { id } = await forum.realm!.accounts.create({ email: person.email, password: PASSWORD, name: person.name, picture: person.photo });
  const token = await forum.tokenFor(person.email, PASSWORD);
  return { ...person, id, token, traces: [person.email, `Quetzal${tag}`, `${first.toLowerCase()}-${tag}.png`] };
}
type Member = Awaited<ReturnType<typeof member>>;

/** Sends a command and answers its JSON and position. */
async function command(pathname: string, method: string, token: string, json?: unknown) {
  const response = await forum.api(pathname, { method, token, json });
  const body = (await response.json().catch(() => null)) as { id?: string; position?: string; error?: { code: string } } | null;
  return { status: response.status, body, position: body?.position };
}

let latest = '';
/** A read once the read side has what the last command wrote. */
const read = async (pathname: string, token?: string) => forum.api(pathname, { token, headers: latest ? { [HEADER_MIN_POSITION]: latest } : {} });
const remember = (position: string | undefined) => {
  if (position) latest = position;
};

/** Every row of every table in the database but the log's own (the read models, checkpoints, keys, the identity realm), as text. */
async function everyRowOutsideTheLog(): Promise<string> {
  const { rows: tables } = await forum.db.raw<{ rows: { schema: string; table: string }[] }>(
    `SELECT schemaname AS schema, tablename AS "table" FROM pg_tables
     WHERE schemaname NOT IN ('pg_catalog', 'information_schema') AND NOT (schemaname = 'eventstore' AND tablename = 'events')`,
  );
  const dumps = await Promise.all(
    tables.map(
      async ({ schema, table }) =>
        (await forum.db.raw<{ rows: { t: string }[] }>(`SELECT coalesce(string_agg(to_jsonb(x)::text, E'\\n'), '') AS t FROM "${schema}"."${table}" x`))
          .rows[0]!.t,
    ),
  );
  return dumps.join('\n');
}

/** The event log's table as stored, every event's data and metadata. */
async function rawLog(): Promise<string> {
  return (await forum.db.raw<{ rows: { t: string }[] }>(`SELECT string_agg(data::text || metadata::text, E'\\n') AS t FROM eventstore.events`)).rows[0]!.t;
}

async function ctl(args: string[]) {
  let out = '';
  let err = '';
  const code = await runForumctl(args, forum.databaseUrl, { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

const expectNone = (text: string, traces: readonly string[], where: string) => {
  for (const trace of traces) expect(text.includes(trace), `${trace} in ${where}`).toBe(false);
};

describe('a member who erases themselves, keeping their posts', () => {
  let ann: Member;
  let bob: Member;
  let annPost: string;
  let annComment: string;
  let bobPost: string;
  /** What API answers said before the erasure: what is read again afterwards. */
  let reads: string[];

  beforeAll(async () => {
    ann = await member('Ann');
    bob = await member('Bob');
    remember((await command('/api/me', 'PATCH', ann.token, { displayName: `${ann.name} II` })).position);
    annPost = (await command('/api/posts', 'POST', ann.token, { title: 'Ann on owls', description: 'Owls are night birds.', tags: [] })).body!.id!;
    bobPost = (await command('/api/posts', 'POST', bob.token, { title: 'Bob on crows', description: 'Crows are clever.', tags: [] })).body!.id!;
    annComment = (await command('/api/comments', 'POST', ann.token, { postId: bobPost, text: 'Ann agrees about crows.' })).body!.id!;
    const bobComment = (await command('/api/comments', 'POST', bob.token, { postId: annPost, text: 'Bob likes owls.' })).body!.id!;
    await command(`/api/comments/${bobComment}/report`, 'POST', ann.token, { feedback: 'spam' });
    await command(`/api/posts/${annPost}/vote`, 'PUT', bob.token, { vote: 'up' });
    remember((await command(`/api/admin/warn-user/${ann.email}`, 'POST', admin.token, { reason: 'Be kind', commentId: annComment })).position);
    reads = [`/api/posts/${annPost}`, `/api/posts/${bobPost}`, `/api/comments/${bobPost}`, `/api/comments/${annPost}`, '/api/posts', '/api/users/top-voted'];
    // before: the API does name them (so that the checks below can fail)
    const before = await Promise.all(
      [...reads, `/api/user-profile/${ann.email}`, '/api/admin/reported-comments'].map(async (p) => (await read(p, admin.token)).text()),
    );
    expect(before.join('\n')).toContain(ann.email);
    expect(before.join('\n')).toContain(`Quetzal`);
    expect(((await (await read(`/api/posts/${annPost}`)).json()) as PostDetail).authorId).toBe(ann.id);
    expect(((await (await read('/api/users/top-voted')).json()) as TopVotedUser[]).find((row) => row._id === ann.id)).toMatchObject({ hasProfile: true });
  });

  it('DELETE /api/me answers 200 with the position of AccountErased, which carries no personal data', async () => {
    const erased = await command('/api/me', 'DELETE', ann.token, { content: 'keep' });
    expect(erased.status).toBe(200);
    expect(erased.body).toMatchObject({ id: ann.id });
    remember(erased.position);
    const { events } = await forum.store.readStream(`user-${ann.id}`);
    expect(events.at(-1)).toMatchObject({ type: 'AccountErased', data: { userId: ann.id, content: 'kept' }, metadata: { actorId: ann.id } });
  });

  it('leaves no plaintext of their name, email or photo in the log table, the read models, the realm or the API', async () => {
    await waitFor(
      () => forum.realm!.accounts.findByEmail(ann.email),
      (account) => account === null,
    );
    // the tables are read directly: first every live projection has applied the erasure
    expect((await read('/api/posts', admin.token)).headers.get(HEADER_READ_BEHIND)).toBeNull();
    expectNone(await rawLog(), ann.traces, 'eventstore.events');
    expectNone(await everyRowOutsideTheLog(), ann.traces, 'the database outside the log');
    const answers = await Promise.all(
      [...reads, '/api/admin/reported-comments', '/api/admin/users?search=quetzal', '/api/admin/audit'].map(async (p) => (await read(p, admin.token)).text()),
    );
    expectNone(answers.join('\n'), ann.traces, 'the API');
  });

  it('shows their posts and comments by "Deleted user", text kept; the profile is gone', async () => {
    const post = (await (await read(`/api/posts/${annPost}`, admin.token)).json()) as PostDetail;
    // no authorId: the name is plain text, with no link to a profile that is gone
    expect(post).toMatchObject({
      title: 'Ann on owls',
      description: 'Owls are night birds.',
      authorName: DELETED_USER_NAME,
      authorId: null,
      authorPhoto: '',
      authorEmail: '',
    });
    const comments = (await (await read(`/api/comments/${bobPost}`, admin.token)).json()) as CommentItem[];
    expect(comments).toEqual([
      expect.objectContaining({ _id: annComment, text: 'Ann agrees about crows.', authorName: DELETED_USER_NAME, authorId: null, authorPhoto: '' }),
    ]);
    const home = (await (await read('/api/posts?page=1')).json()) as PostsPage;
    expect(home.posts.filter((p) => p._id === annPost || p._id === bobPost).map((p) => [p.title, p.authorId])).toEqual([
      ['Bob on crows', bob.id],
      ['Ann on owls', null],
    ]);
    const board = (await (await read('/api/users/top-voted')).json()) as TopVotedUser[];
    expect(board.find((row) => row._id === ann.id)).toMatchObject({ name: DELETED_USER_NAME, hasProfile: false });
    expect((await read(`/api/user-profile/${ann.email}`, admin.token)).status).toBe(404);
    const users = (await (await read('/api/admin/users?search=quetzal', admin.token)).json()) as { users: { _id: string }[] };
    expect(users.users.map((u) => u._id)).toEqual([bob.id]);
  });

  it('refuses their still-valid token at once, on reads and writes, and a retry of the erasure is fine', async () => {
    const me = await forum.api('/api/me', { token: ann.token });
    expect(me.status).toBe(401);
    expect(((await me.json()) as { error: { code: string } }).error.code).toBe('ACCOUNT_DISABLED');
    expect((await command('/api/posts', 'POST', ann.token, { title: 'Back', description: 'Again', tags: [] })).status).toBe(401);
    expect((await command('/api/comments', 'POST', ann.token, { postId: bobPost, text: 'hello' })).status).toBe(401);
    const again = await command('/api/me', 'DELETE', ann.token, { content: 'keep' });
    expect(again).toMatchObject({ status: 200, position: undefined });
  });

  it('shows them as erased in forumctl history and export, and in the console history', async () => {
    const history = await ctl(['history', `user-${ann.id}`, '--json']);
    expect(history.code, history.err).toBe(0);
    expect(history.out).toContain(ERASED_MARK);
    expectNone(history.out, ann.traces, 'forumctl history');
    const file = path.join(dir, 'export.ndjson');
    expect((await ctl(['export', '--out', file])).code).toBe(0);
    const exported = await readFile(file, 'utf8');
    const registered = exported.split('\n').find((line) => line.includes('"UserRegistered"') && line.includes(ann.id))!;
    expect((JSON.parse(registered) as { data: unknown }).data).toMatchObject({ userId: ann.id, email: ERASED_MARK, name: ERASED_MARK, photoURL: ERASED_MARK });
    expect(exported).toContain('Owls are night birds.');
    expect(exported).not.toContain('$sealed');
    expectNone(exported, ann.traces, 'forumctl export');
    const console = await read(`/api/admin/history/user/${ann.id}`, admin.token);
    expect(console.status).toBe(200);
    const text = await console.text();
    expect(text).toContain(ERASED_MARK);
    expectNone(text, ann.traces, 'the console history');
  });
});

describe('a member who erases themselves with their posts and comments', () => {
  let cy: Member;
  let dee: Member;
  let cyPost: string;
  let deePost: string;

  beforeAll(async () => {
    cy = await member('Cy');
    dee = await member('Dee');
    cyPost = (await command('/api/posts', 'POST', cy.token, { title: 'Cy secret heron title', description: 'Cy secret heron text.', tags: [] })).body!.id!;
    deePost = (await command('/api/posts', 'POST', dee.token, { title: 'Dee on wrens', description: 'Wrens are small.', tags: [] })).body!.id!;
    await command('/api/comments', 'POST', cy.token, { postId: deePost, text: 'Cy secret comment on wrens.' });
    await command('/api/comments', 'POST', dee.token, { postId: cyPost, text: 'Dee answers Cy.' });
    remember((await command(`/api/posts/${cyPost}/vote`, 'PUT', dee.token, { vote: 'up' })).position);
    // the member has seen what they wrote before they erase it (what the erasure takes is found in the read models)
    expect((await read(`/api/comments/${deePost}`)).status).toBe(200);
  });

  it('takes their posts (with the comments on them) and their comments away, and their text with them', async () => {
    const erased = await command('/api/me', 'DELETE', cy.token, { content: 'erase' });
    expect(erased.status).toBe(200);
    remember(erased.position);
    expect((await read(`/api/posts/${cyPost}`)).status).toBe(410);
    expect((await read(`/api/comments/${cyPost}`)).status).toBe(404);
    const onDee = (await (await read(`/api/comments/${deePost}`)).json()) as CommentItem[];
    expect(onDee).toEqual([]);
    const post = (await (await read(`/api/posts/${deePost}`)).json()) as PostDetail;
    expect(post.commentCount).toBe(0);
    const home = (await (await read('/api/posts?page=1&sort=newest')).json()) as PostsPage;
    expect(home.posts.map((p) => p._id)).not.toContain(cyPost);
    const texts = ['Cy secret heron', 'Cy secret comment'];
    expectNone(await rawLog(), [...cy.traces, ...texts], 'eventstore.events');
    expectNone(await everyRowOutsideTheLog(), [...cy.traces, ...texts], 'the database outside the log');
    const { events } = await forum.store.readStream(`post-${cyPost}`, { erasedAs: 'marked' });
    expect(events.map((e) => e.type)).toEqual(['PostCreated', 'PostDeleted']);
    expect(events[0]!.data).toMatchObject({ title: ERASED_MARK, description: ERASED_MARK, authorEmail: ERASED_MARK });
  });
});

describe("an admin's erasure of an account", () => {
  it('erases another user (not themselves, and only an admin), and the staff log says so without naming them', async () => {
    const eve = await member('Eve');
    const fay = await member('Fay');
    remember((await command('/api/posts', 'POST', eve.token, { title: 'Eve posts', description: 'Something.', tags: [] })).position);
    expect((await read('/api/posts')).status).toBe(200); // the read side has Eve's post, as the admin sees it
    const refused = await command(`/api/admin/users/${eve.id}`, 'DELETE', fay.token, { content: 'keep' });
    expect(refused.status).toBe(403);
    const self = await command(`/api/admin/users/${admin.id}`, 'DELETE', admin.token, { content: 'keep' });
    expect(self).toMatchObject({ status: 422, body: { error: { code: 'CANNOT_ERASE_SELF' } } });
    const before = await forum.eventCount();
    for (const body of [undefined, {}, { content: 'maybe' }, { content: 'keep', extra: 1 }]) {
      expect((await command(`/api/admin/users/${eve.id}`, 'DELETE', admin.token, body)).status).toBe(400);
    }
    expect((await command('/api/admin/users/nobody-at-all', 'DELETE', admin.token, { content: 'keep' })).status).toBe(404);
    expect(await forum.eventCount()).toBe(before);

    const erased = await command(`/api/admin/users/${eve.id}`, 'DELETE', admin.token, { content: 'erase' });
    expect(erased.status).toBe(200);
    remember(erased.position);
    // writes are refused from the commit on; reads from when the read side has the event
    expect((await command('/api/posts', 'POST', eve.token, { title: 'x', description: 'y', tags: [] })).status).toBe(401);
    expect((await read('/api/me', eve.token)).status).toBe(401);
    const audit = (await (await read('/api/admin/audit?type=AccountErased', admin.token)).json()) as AuditPage;
    expect(audit.entries).toEqual([
      expect.objectContaining({ target: { type: 'user', id: eve.id }, summary: 'Erased an account with its posts and comments' }),
    ]);
    expectNone(JSON.stringify(audit), eve.traces, 'the staff log');
    await waitFor(
      () => forum.realm!.accounts.findByEmail(eve.email),
      (account) => account === null,
    );
  });
});

describe('the reactor that removes erased accounts from the identity provider', () => {
  it('still hears an erasure at once after its LISTEN session was lost, well before its 30 s look', async () => {
    const terminated = async () =>
      (
        await forum.db.raw<{ rows: { pid: number }[] }>(
          // this forum's reactor: other test files' forums share the server, each in a database of its own
          `SELECT pg_terminate_backend(pid) AS pid FROM pg_stat_activity WHERE application_name = 'forum-erasure-reactor' AND datname = current_database()`,
        )
      ).rows.length;
    expect(await terminated()).toBe(1);
    const gus = await member('Gus');
    const erased = await command('/api/me', 'DELETE', gus.token, { content: 'keep' });
    expect(erased.status).toBe(200);
    remember(erased.position);
    // the reactor's periodic look comes every 30 s: a removal within 15 s was heard through LISTEN
    await waitFor(
      () => forum.realm!.accounts.findByEmail(gus.email),
      (account) => account === null,
      15_000,
    );
  });
});

describe('afterwards', () => {
  it('forumctl verify and rebuild --all succeed: a replay of the erased log gives the read models the live ones became', async () => {
    const verified = await ctl(['verify']);
    expect(verified.code, verified.err + verified.out).toBe(0);
    // rebuild verifies what it switched in, too
    const rebuilt = await ctl(['rebuild', '--all']);
    expect(rebuilt.code, rebuilt.err + rebuilt.out).toBe(0);
    expect(rebuilt.out).toContain('audit: ok');
  });
});
