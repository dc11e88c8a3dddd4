import { request } from 'node:http';
import { connect } from 'node:net';
import { ErrorBody, REPORT_FEEDBACK } from '@forum/contracts';
import { unsubscribeSecret, unsubscribeTokens } from '@forum/platform';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../testing/forum.ts';
import { waitFor } from '@forum/platform/testing';
import { hostileObject, hostileQuery, hostileSegment, hostileString, malformedJson, oddContentType, wrongType } from '@forum/platform/testing';

/**
 * Generated requests against the whole forum over real HTTP: every command and every read, with
 * hostile bodies, parameters and headers. Whatever arrives, the answer is never a 5xx; a refused
 * request answers the error body with a stable code and appends nothing.
 *
 * FUZZ_RUNS sets the number of cases (default 2,000, spread over the routes); a failing case is
 * shrunk and printed with its seed, and `FUZZ_SEED=<seed>` repeats the run.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 2_000);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);

interface Call {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: Buffer;
}

interface Answer {
  readonly status: number;
  readonly contentType: string;
  readonly text: string;
}

let forum: TestForum;
const tokens: Record<'member' | 'admin' | 'doomed', string> = { member: '', admin: '', doomed: '' };
/** What the calls aim at: kept ones, and doomed ones that the deleting calls may take away. */
const fixtures = {
  postId: '',
  doomedPostId: '',
  commentId: '',
  doomedCommentId: '',
  tagId: '',
  announcementId: '',
  memberId: '',
  memberEmail: '',
  doomedUserId: '',
  ticket: '',
  postTopic: '',
  unsubscribeToken: '',
};

beforeAll(async () => {
  // a far position in X-Min-Position waits its longest: short here, so each case is quick
  forum = await startTestForum({ PAYMENT_DEMO_DELAY_MS: '0', MIN_POSITION_WAIT_MS: '20' });
  const member = await forum.newUser('Fuzz Member');
  tokens.member = member.token;
  tokens.admin = (await forum.demoAdmin()).token;
  fixtures.memberId = member.id;
  fixtures.memberEmail = member.email;
  const created = (path: string, token: string, body: unknown) => forum.call<{ id: string }>('POST', path, { token, body, expect: 201 });
  const post = async (title: string) => (await created('/api/posts', member.token, { title, description: 'A post to aim at', tags: [] })).id;
  const comment = async (text: string) => (await created('/api/comments', member.token, { postId: fixtures.postId, text })).id;
  // the read side waits only briefly here (see above): what depends on a read model is asked until it holds
  const eventually = (call: () => Promise<Response>) => waitFor(call, (response) => response.ok);
  await forum.register(member.token); // the member's forum record begins
  // members, so that the free post limit does not stand between a generated post and the store
  for (const who of [member.email, 'admin@forum.local'])
    await eventually(() => forum.api(`/api/users/membership/${who}`, { method: 'PATCH', token: tokens.admin }));
  fixtures.postId = await post('Fuzzed');
  fixtures.doomedPostId = await post('Doomed');
  fixtures.commentId = await comment('A comment to aim at');
  fixtures.doomedCommentId = await comment('A doomed comment');
  fixtures.tagId = (await created('/api/admin/tags', tokens.admin, { name: 'fuzz' })).id;
  fixtures.announcementId = (await created('/api/admin/announcements', tokens.admin, { title: 'Fuzz news', description: 'An announcement to aim at' })).id;
  fixtures.ticket = (await forum.call<{ ticket: string }>('GET', '/api/stream/ticket', { token: member.token })).ticket;
  fixtures.postTopic = `post:${fixtures.postId}`;
  fixtures.unsubscribeToken = unsubscribeTokens(await unsubscribeSecret(forum.db)).sign({ userId: member.id, kinds: ['reply', 'mention'] });
  // members the erasing calls may take away: one erases themselves, the admin erases the other
  const [doomed, erased] = [await forum.newUser('Doomed Member'), await forum.newUser('Erased Member')];
  tokens.doomed = doomed.token;
  fixtures.doomedUserId = erased.id;
  for (const token of [doomed.token, erased.token]) await forum.register(token);
}, 60_000);
afterAll(() => forum?.stop());

function send(call: Call): Promise<Answer> {
  // framed by Content-Length, as clients frame a body (Node would not send one for a DELETE otherwise)
  const headers = call.body === undefined ? call.headers : { ...call.headers, 'Content-Length': String(call.body.length) };
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: forum.port, method: call.method, path: call.path, headers }, (res) => {
      const chunks: Buffer[] = [];
      const answer = () => ({
        status: res.statusCode ?? 0,
        contentType: String(res.headers['content-type'] ?? ''),
        text: Buffer.concat(chunks).toString('utf8'),
      });
      // a change stream never ends by itself: its first message is its answer, then the client leaves
      const stream = String(res.headers['content-type']).startsWith('text/event-stream');
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        if (stream && Buffer.concat(chunks).includes('\n\n')) {
          resolve(answer());
          req.destroy();
        }
      });
      res.on('end', () => resolve(answer()));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(call.body);
  });
}

// ── what a client sends besides the body ─────────────────────────────────

const memberOrAdmin = fc.constantFrom(
  () => `Bearer ${tokens.member}`,
  () => `Bearer ${tokens.admin}`,
);
const badAuthorization = fc.oneof(
  fc.constant(() => undefined),
  fc
    .constantFrom('Bearer', 'Bearer ', 'Basic YWxpY2U6eA==', 'Bearer a.b.c', 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.', 'bearer  x', 'Bearer \u00e9')
    .map((value) => () => value),
);

/** One header a client adds or gets wrong. */
const oddHeader: fc.Arbitrary<[string, string]> = fc.oneof(
  fc.tuple(fc.constant('Idempotency-Key'), fc.oneof(fc.string({ unit: 'binary-ascii', maxLength: 300 }), fc.uuid(), hostileString)),
  fc.tuple(fc.constant('X-Min-Position'), fc.oneof(fc.constantFrom('0.0', '1.1', '-1.0', '99999999999999999999.1', 'a.b', '1', '', '1.1.1'), hostileString)),
  fc.tuple(fc.constant('X-Request-Id'), hostileString),
  fc.tuple(fc.constant('Last-Event-ID'), fc.oneof(fc.constantFrom('0.0', '1.1', '-1.0', '99999999999999999999.1', 'a.b', ''), hostileString)),
  fc.tuple(fc.constantFrom('Accept', 'Accept-Encoding', 'If-None-Match', 'Origin', 'X-Forwarded-For', 'Cookie'), hostileString),
);

/** Header values a client can put on the wire: Latin-1 without CR, LF or NUL. */
const wireSafe = (value: string) => value.replace(/[^\x20-\x7e\x80-\xff\t]/g, '?');

interface Parts {
  readonly params: Record<string, string>;
  readonly auth: () => string | undefined;
  readonly type: string | undefined;
  readonly header: [string, string] | null;
  readonly body: Buffer | undefined;
  readonly query: string;
}

function callOf(method: string, template: string, parts: Parts): Call {
  const headers: Record<string, string> = {};
  if (parts.header) headers[parts.header[0]] = wireSafe(parts.header[1]);
  const token = parts.auth();
  if (token !== undefined) headers.Authorization = wireSafe(token);
  if (parts.body !== undefined && parts.type !== undefined) headers['Content-Type'] = parts.type;
  const path = template.replace(/:(\w+)/g, (_, name: string) => parts.params[name] ?? 'x');
  return { method, path: `${path}${parts.query ? `?${parts.query}` : ''}`, headers, ...(parts.body && { body: parts.body }) };
}

/**
 * A call of `route`: its valid parts (`valid`) with, mostly, ONE of them gone wrong — the body,
 * a path parameter, the query, the token, the content type or a header — so that each case
 * reaches as deep into the call as it can; now and then all of them at once.
 */
function hostileCall(
  route: string,
  valid: fc.Arbitrary<Parts>,
  broken: { body?: fc.Arbitrary<Buffer | undefined>; query?: fc.Arbitrary<string> },
): fc.Arbitrary<Call> {
  const [method, template] = route.split(' ') as [string, string];
  const names = [...template.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  type Mutation = fc.Arbitrary<(parts: Parts) => Parts>;
  // the body and the query are where most can go wrong: they are broken most often
  const mutations: { weight: number; arbitrary: Mutation }[] = [
    { weight: 1, arbitrary: badAuthorization.map((auth) => (parts: Parts) => ({ ...parts, auth })) },
    { weight: 1, arbitrary: oddHeader.map((header) => (parts: Parts) => ({ ...parts, header })) },
  ];
  if (names.length) {
    const segment = fc
      .tuple(fc.constantFrom(...names), hostileSegment)
      .map(([name, value]) => (parts: Parts) => ({ ...parts, params: { ...parts.params, [name]: value } }));
    mutations.push({ weight: 2, arbitrary: segment });
  }
  if (broken.body) {
    const body = broken.body;
    mutations.push(
      { weight: 6, arbitrary: body.map((b) => (parts: Parts) => ({ ...parts, body: b })) },
      { weight: 1, arbitrary: oddContentType.map((type) => (parts: Parts) => ({ ...parts, type })) },
    );
  }
  if (broken.query) {
    const query = broken.query;
    mutations.push({ weight: 6, arbitrary: query.map((q) => (parts: Parts) => ({ ...parts, query: q })) });
  }
  const mutation = fc.oneof(...mutations);
  return fc
    .tuple(
      valid,
      fc.oneof(
        { weight: 8, arbitrary: mutation.map((m) => [m]) },
        { weight: 1, arbitrary: fc.constant([]) },
        { weight: 1, arbitrary: fc.array(mutation, { minLength: 2, maxLength: 4 }) },
      ),
    )
    .map(([parts, changes]) =>
      callOf(
        method,
        template,
        changes.reduce((p, change) => change(p), parts),
      ),
    );
}

// ── the routes ───────────────────────────────────────────────────────────

/** A fixture's id, read when a case is made (the tables below are built before the fixtures exist). */
const fixture = (key: keyof typeof fixtures) => () => fc.constant(key).map((k) => fixtures[k]);
const ids = {
  post: fixture('postId'),
  doomedPost: fixture('doomedPostId'),
  comment: fixture('commentId'),
  doomedComment: fixture('doomedCommentId'),
  tag: fixture('tagId'),
  announcement: fixture('announcementId'),
  user: fixture('memberId'),
  email: () => fc.oneof(fixture('memberEmail')(), fc.constantFrom('admin@forum.local', 'nobody@forum.test')),
};
const text = (...samples: string[]) => fc.constantFrom(...samples);

type Params = Record<string, () => fc.Arbitrary<string>>;

/** Each command's path parameters, query parameters and body fields (valid values), and who calls it when not the member or the admin. */
const commands: Record<
  string,
  { params?: Params; query?: Record<string, fc.Arbitrary<string>>; fields?: Record<string, fc.Arbitrary<unknown>>; caller?: 'doomed' | 'nobody' }
> = {
  'POST /api/posts': { fields: { title: text('A title'), description: text('Some words'), tags: fc.array(text('fuzz', 'General'), { maxLength: 6 }) } },
  'DELETE /api/my-posts/:id': { params: { id: ids.doomedPost } },
  'PATCH /api/me': { fields: { displayName: text('Fuzzy'), photoURL: text('https://example.com/a.png', '') } },
  'POST /api/me/registration': {},
  // a valid case erases its caller: a member of its own, so that the others keep calling
  'DELETE /api/me': { fields: { content: text('keep', 'erase') }, caller: 'doomed' },
  'DELETE /api/admin/users/:userId': { params: { userId: fixture('doomedUserId') }, fields: { content: text('keep', 'erase') } },
  'PATCH /api/users/membership/:email': { params: { email: ids.email } },
  'PATCH /api/posts/:id': {
    params: { id: ids.post },
    fields: {
      title: text('An edited title'),
      description: text('Edited words'),
      tags: fc.array(text('fuzz', 'General'), { maxLength: 6 }),
      reason: text('Tidy up'),
    },
  },
  'PATCH /api/comments/:commentId': { params: { commentId: ids.comment }, fields: { text: text('An edited comment'), reason: text('Tidy up') } },
  'PUT /api/posts/:id/vote': { params: { id: ids.post }, fields: { vote: text('up', 'down', 'none') } },
  'PATCH /api/posts/:id/vote': { params: { id: ids.post }, fields: { likeChange: fc.constantFrom(-1, 0, 1), dislikeChange: fc.constantFrom(-1, 0, 1) } },
  'PUT /api/posts/:id/follow': { params: { id: ids.post } },
  'DELETE /api/posts/:id/follow': { params: { id: ids.post } },
  'PUT /api/tags/:name/follow': { params: { name: () => text('fuzz', 'FUZZ', 'General') } },
  'DELETE /api/tags/:name/follow': { params: { name: () => text('fuzz', 'FUZZ', 'General') } },
  'POST /api/comments': { fields: { postId: ids.post(), text: text('Nice post') } },
  'POST /api/comments/:commentId/report': { params: { commentId: ids.comment }, fields: { feedback: fc.constantFrom(...REPORT_FEEDBACK) } },
  'DELETE /api/admin/comments/:commentId': { params: { commentId: ids.doomedComment } },
  'POST /api/admin/warn-user/:authorEmail': { params: { authorEmail: ids.email }, fields: { reason: text('Be kind'), commentId: ids.comment() } },
  'POST /api/me/notifications/read': { fields: { upTo: text('2026-01-01T00:00:00Z'), ids: fc.array(fc.uuid(), { maxLength: 3 }) } },
  'POST /api/me/announcements/read': { fields: { announcementId: ids.announcement() } },
  'PUT /api/me/notification-preferences': { fields: { reply: text('app', 'email', 'digest', 'off'), 'followed-tag': text('digest', 'off') } },
  // an email's one-click link: no sign-in, the token in the query
  'POST /api/unsubscribe': { query: { token: fixture('unsubscribeToken')() }, fields: { 'List-Unsubscribe': text('One-Click') }, caller: 'nobody' },
  'POST /api/admin/tags': { fields: { name: text('tagged') } },
  'DELETE /api/admin/tags/:id': { params: { id: ids.tag } },
  'PATCH /api/admin/users/make-admin/:userId': { params: { userId: ids.user } },
  'POST /api/admin/announcements': { fields: { title: text('News'), description: text('Something happened') } },
  'POST /api/contact': { fields: { name: text('Vera'), email: text('vera@example.com'), message: text('Hello there') } },
  'POST /api/admin/projections/:name/rebuild': { params: { name: () => fc.constantFrom('tags', 'no-such-projection') } },
  // staff's calls (issue #43): on the doomed post, comment and member, so that the others keep their rights
  'POST /api/posts/:id/report': { params: { id: ids.post }, fields: { feedback: fc.constantFrom(...REPORT_FEEDBACK) } },
  'PUT /api/admin/users/:userId/moderator': { params: { userId: fixture('doomedUserId') } },
  'DELETE /api/admin/users/:userId/moderator': { params: { userId: fixture('doomedUserId') } },
  'POST /api/admin/reports/:kind/:id/dismiss': { params: { kind: () => text('post', 'comment'), id: ids.doomedPost } },
  'PUT /api/admin/posts/:id/hide': { params: { id: ids.doomedPost }, fields: { reason: text('Off topic') } },
  'DELETE /api/admin/posts/:id/hide': { params: { id: ids.doomedPost } },
  'PUT /api/admin/comments/:commentId/hide': { params: { commentId: ids.doomedComment }, fields: { reason: text('Rude') } },
  'DELETE /api/admin/comments/:commentId/hide': { params: { commentId: ids.doomedComment } },
  'PUT /api/admin/posts/:id/lock': { params: { id: ids.doomedPost }, fields: { reason: text('Settled') } },
  'DELETE /api/admin/posts/:id/lock': { params: { id: ids.doomedPost } },
  'PUT /api/admin/posts/:id/pin': { params: { id: ids.doomedPost } },
  'DELETE /api/admin/posts/:id/pin': { params: { id: ids.doomedPost } },
  'POST /api/admin/users/:userId/warnings': {
    params: { userId: fixture('doomedUserId') },
    fields: { reason: text('Be kind'), about: fc.record({ kind: fc.constantFrom('post', 'comment'), id: ids.doomedPost() }) },
  },
  'POST /api/admin/users/:userId/suspend': {
    params: { userId: fixture('doomedUserId') },
    fields: { reason: text('Spam'), period: text('day', 'week', 'indefinite', 'date'), until: text('2030-01-01T00:00:00Z') },
  },
  'DELETE /api/admin/users/:userId/suspend': { params: { userId: fixture('doomedUserId') } },
};

/** Each read's path parameters and query parameters (valid values, unencoded). */
const listQuery = { range: text('[0,9]'), sort: text('["id","ASC"]'), filter: text('{}') };
const reads: Record<string, { params?: Params; query?: Record<string, fc.Arbitrary<string>> }> = {
  'GET /api/users/admin/:email': { params: { email: ids.email } },
  'GET /api/admin/history/:kind/:id': {
    params: { kind: () => fc.constantFrom('user', 'post', 'comment', 'tag'), id: ids.post },
    query: { page: text('1', '2') },
  },
  'GET /api/admin/history/:kind/:id/states': {
    params: { kind: () => fc.constantFrom('user', 'post', 'comment', 'tag'), id: ids.post },
    query: { after: text('1.1', '99999999999.99999999999', 'x'), limit: text('1', '200', '201') },
  },
  'GET /api/admin/history/:kind/:id/state': {
    params: { kind: () => fc.constantFrom('user', 'post', 'comment', 'tag'), id: ids.post },
    query: { at: text('1.1', '99999999999.99999999999', '1', 'x') },
  },
  'GET /api/admin/snapshots': { query: listQuery },
  'GET /api/comments/:postId': { params: { postId: ids.post } },
  'GET /api/posts/:id/comments': { params: { id: ids.post }, query: { order: text('oldest', 'newest'), limit: text('1', '20'), after: text('') } },
  'GET /api/users/:id': { params: { id: () => fc.oneof(fixture('memberId')(), text('@fuzz', '@FUZZ', '@nobody', 'nobody')) }, query: { page: text('1', '2') } },
  'GET /api/users/handles': { query: { prefix: text('', 'f', 'FU', 'fuzz_', 'a.b-c') } },
  'GET /api/user-profile/:email': { params: { email: ids.email } },
  'GET /api/my-posts/:email': { params: { email: ids.email } },
  'GET /api/user-post-count/:email': { params: { email: ids.email } },
  'GET /api/posts/:id': { params: { id: ids.post } },
  // the sitemap's files and the feeds, at the forum's top level (docs/seo.md)
  'GET /sitemaps/:name': { params: { name: () => text('pages-1.xml', 'pages-2.xml', 'pages-0.xml') } },
  'GET /feeds/tags/:name': { params: { name: () => text('DevOps.xml', 'devops.xml', 'React.xml', 'Nope.xml') } },
  'GET /feeds/posts/:id/comments.xml': { params: { id: ids.post } },
  'GET /api/posts/:id/revisions': { params: { id: ids.post } },
  'GET /api/posts/:id/follow': { params: { id: ids.post } },
  'GET /api/me/notifications': { query: { page: text('1', '2'), unread: text('true', 'false') } },
  'GET /api/comments/:commentId/revisions': { params: { commentId: ids.comment } },
  'GET /api/posts': { query: { page: text('1', '2'), sort: text('newest', 'popularity') } },
  // words that find the fixtures' posts, so their snippets are made: markup, the snippets' stand-in character, the syntax alone
  'GET /api/posts/search': {
    query: {
      q: text('fuzz', 'post -other', '"a post"', 'aim', 'post <b>aim</b>', '\uE000 post', 'or', '-', '"', '!:* & | post'),
      tag: text('fuzz', 'General'),
      page: text('1', '2'),
    },
  },
  'GET /api/admin/users': { query: { page: text('1', '2'), search: text('fuzz', 'a'), ...listQuery } },
  'GET /api/admin/contact-messages': { query: { page: text('1'), ...listQuery } },
  'GET /api/admin/audit': {
    query: { actor: text('admin@forum.local'), type: text('PostCreated'), since: text('2026-01-01'), until: text('2030-01-01'), page: text('1'), ...listQuery },
  },
  'GET /api/admin/tags': { query: listQuery },
  'GET /api/admin/reported-comments': { query: listQuery },
  'GET /api/admin/projections': { query: listQuery },
  'GET /api/stream': {
    query: {
      topics: fc.oneof(text('posts', 'announcements', 'me', 'posts,me,announcements'), fixture('postTopic')()),
      ticket: fc.oneof(fixture('ticket')(), text('a.b.c', '')),
      lastEventId: text('1.1', '0.0', 'garbage'),
    },
  },
};

const validParams = (template: string, params: Params = {}) =>
  fc.record(Object.fromEntries([...template.matchAll(/:(\w+)/g)].map((m) => [m[1]!, (params[m[1]!]?.() ?? fc.uuid()).map(encodeURIComponent)])));

function commandCall(route: string): fc.Arbitrary<Call> {
  const spec = commands[route]!;
  const caller = spec.caller;
  const body = fc.oneof(
    { weight: 8, arbitrary: hostileObject(spec.fields ?? {}).map((value) => Buffer.from(JSON.stringify(value))) },
    { weight: 1, arbitrary: wrongType.map((value) => Buffer.from(JSON.stringify(value))) },
    { weight: 2, arbitrary: malformedJson },
    { weight: 1, arbitrary: fc.constantFrom(undefined, Buffer.alloc(0), Buffer.from('{}'), Buffer.alloc(200_000, 0x20)) },
  );
  const valid = fc.record({
    params: validParams(route.split(' ')[1]!, spec.params),
    auth: caller === 'nobody' ? fc.constant(() => undefined) : caller ? fc.constant(() => `Bearer ${tokens[caller]}`) : memberOrAdmin,
    type: fc.constant('application/json'),
    header: fc.constant(null),
    body: fc.record(spec.fields ?? {}).map((value) => Buffer.from(JSON.stringify(value))),
    query: spec.query ? fc.record(spec.query).map((query) => new URLSearchParams(query).toString()) : fc.constant(''),
  });
  return hostileCall(route, valid, { body, ...(spec.query && { query: hostileQuery(spec.query) }) });
}

function readCall(route: string): fc.Arbitrary<Call> {
  const spec = reads[route] ?? {};
  const valid = fc.record({
    params: validParams(route.split(' ')[1]!, spec.params),
    auth: fc.oneof(
      memberOrAdmin,
      fc.constant(() => undefined),
    ),
    type: fc.constant(undefined),
    header: fc.constant(null),
    body: fc.constant(undefined),
    query: fc.constant(''),
  });
  return hostileCall(route, valid, { query: hostileQuery(spec.query ?? { page: text('1') }) });
}

/** The answer's verdict: no 5xx; a refusal is the error body with a stable code and appends nothing. */
async function check(call: Call, before: number, answer: Answer) {
  const shown = `${call.method} ${call.path} → ${answer.status} ${answer.text.slice(0, 300)}`;
  expect(answer.status, shown).toBeGreaterThanOrEqual(200);
  expect(answer.status, shown).toBeLessThan(500);
  if (answer.status < 400) return;
  expect(answer.contentType, shown).toMatch(/^application\/json/);
  const body = ErrorBody.safeParse(JSON.parse(answer.text));
  expect(body.success, shown).toBe(true);
  expect(body.data!.error.code, shown).toMatch(/^[A-Z][A-Z0-9_]*$/);
  expect(await forum.eventCount(), shown).toBe(before);
}

const runsPerRoute = (routes: number) => Math.max(20, Math.ceil(RUNS / routes));

describe('every route of the API under generated hostile requests', () => {
  it('fuzzes every route the services have (a new route must join the tables here)', () => {
    const served = [...forum.apps.command.routes, ...forum.apps.query.routes].filter((route) => / \/(api|feeds|sitemaps)\//.test(route));
    const covered = new Set([...Object.keys(commands), ...Object.keys(reads), ...served.filter((r) => r.startsWith('GET ') && !r.includes(':'))]);
    expect(served.filter((route) => !covered.has(route))).toEqual([]);
  });

  it.each(Object.keys(commands))('%s: never a 5xx, a refusal appends nothing', async (route) => {
    await fc.assert(
      fc.asyncProperty(commandCall(route), async (call) => {
        const before = await forum.eventCount();
        await check(call, before, await send(call));
      }),
      { numRuns: runsPerRoute(Object.keys(commands).length + Object.keys(reads).length), ...(SEED !== undefined && { seed: SEED }) },
    );
  });

  it.each(Object.keys(reads))('%s: never a 5xx, never an event', async (route) => {
    await fc.assert(
      fc.asyncProperty(readCall(route), async (call) => {
        const before = await forum.eventCount();
        await check(call, before, await send(call));
        expect(await forum.eventCount(), `${call.method} ${call.path}`).toBe(before);
      }),
      { numRuns: runsPerRoute(Object.keys(commands).length + Object.keys(reads).length), ...(SEED !== undefined && { seed: SEED }) },
    );
  });

  it('every other read: never a 5xx, never an event', async () => {
    const others = forum.apps.query.routes.filter((route) => route.startsWith('GET /api/') && !(route in reads));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...others).chain(readCall), async (call) => {
        const before = await forum.eventCount();
        await check(call, before, await send(call));
        expect(await forum.eventCount(), `${call.method} ${call.path}`).toBe(before);
      }),
      { numRuns: 100, ...(SEED !== undefined && { seed: SEED }) },
    );
  });

  it('the forum still answers after the run', async () => {
    expect((await forum.api('/readyz')).status).toBe(200);
    expect((await forum.api(`/api/posts/${fixtures.postId}`)).status).toBeLessThan(500);
  });
});

/** Bytes written straight to the socket: what Node's parser refuses gets the error body too. */
function raw(bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(forum.port, '127.0.0.1', () => socket.end(bytes));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('bytes that are not HTTP', () => {
  it.each([
    ['a request line that is not one', 'NOT HTTP AT ALL\r\n\r\n', 400, 'VALIDATION_FAILED'],
    ['a header without a colon', 'GET /api/posts HTTP/1.1\r\nHost: x\r\nbroken header\r\n\r\n', 400, 'VALIDATION_FAILED'],
    [
      'a body longer than its Content-Length says',
      'POST /api/contact HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n{}',
      400,
      'VALIDATION_FAILED',
    ],
    ['headers larger than the server reads', `GET /api/posts HTTP/1.1\r\nHost: x\r\nX-Big: ${'x'.repeat(20_000)}\r\n\r\n`, 431, 'HEADERS_TOO_LARGE'],
  ])('%s: the status with the error body, and the connection closed', async (_case, bytes, status, code) => {
    const answer = await raw(bytes);
    const [head = '', body = ''] = answer.split('\r\n\r\n');
    expect(head).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
    expect(head).toMatch(/\r\nContent-Type: application\/json/i);
    expect(head).toMatch(/\r\nConnection: close/i);
    expect(ErrorBody.parse(JSON.parse(body)).error.code).toBe(code);
  });
});
