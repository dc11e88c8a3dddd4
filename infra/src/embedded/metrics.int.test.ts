import { allProjections } from '@forum/projections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type NewUser, type TestForum } from '../testing/forum.ts';
import { scrape, type Scrape } from '../testing/prometheus.ts';
import { openStream } from '../testing/sse-client.ts';

/**
 * `npm start`'s metrics (METRICS_PORT, docs/operations.md#metrics): one listener for the whole
 * process, in Prometheus's text format. A scrape, then commands (a post, a write the limits refuse,
 * a vote the rules refuse), a visitor's read twice, a change stream, and a scrape again: every
 * family is there and has moved. The public port has no /metrics.
 */
let forum: TestForum;
let metricsUrl: string;
let author: NewUser;
let voter: NewUser;
let before: Scrape;
let after: Scrape;
let postId: string;

beforeAll(async () => {
  // one post a member in the limit's short window: the second is refused (429)
  forum = await startTestForum({ METRICS_PORT: '0', WRITE_LIMITS: JSON.stringify({ post: { burst: { points: 1 } } }) });
  metricsUrl = forum.metricsUrl!;
  author = await forum.newUser('Metrics Author');
  voter = await forum.newUser('Metrics Voter');
  await Promise.all([forum.register(author.token), forum.register(voter.token)]);
  before = await scrape(metricsUrl);

  const created = await forum.api('/api/posts', { method: 'POST', token: author.token, json: { title: 'Measured', description: 'Counted', tags: [] } });
  expect(created.status).toBe(201);
  postId = ((await created.json()) as { id: string }).id;
  const refused = await forum.api('/api/posts', { method: 'POST', token: author.token, json: { title: 'One too many', description: 'Refused', tags: [] } });
  expect(refused.status).toBe(429);
  const ownVote = await forum.api(`/api/posts/${postId}/vote`, { method: 'PUT', token: author.token, json: { vote: 'up' } });
  expect(ownVote.status).toBe(422);
  // a vote appends to the post's stream alone: a group commit's
  await forum.call('PUT', `/api/posts/${postId}/vote`, { token: voter.token, body: { vote: 'up' } });
  // a member's read waits for the post; then a visitor reads one page twice, the second from memory (a new version in between is a new miss)
  await forum.call('GET', `/api/posts/${postId}`, { token: author.token });
  for (let tries = 1; ; tries++) {
    const hits = (await scrape(metricsUrl)).sum('forum_visitor_cache_lookups_total', { reader: 'visitor', result: 'hit' });
    for (let i = 0; i < 2; i++) expect((await forum.api('/api/posts', { readYourWrites: false })).status).toBe(200);
    if ((await scrape(metricsUrl)).sum('forum_visitor_cache_lookups_total', { reader: 'visitor', result: 'hit' }) > hits) break;
    expect(tries, 'the read side never held still for two reads').toBeLessThan(50);
  }
  const stream = await openStream(`http://127.0.0.1:${forum.port}`, '/api/stream?topics=posts');
  expect(stream.status).toBe(200);
  await stream.next((message) => message.event === 'ready');
  after = await scrape(metricsUrl);
  stream.close();
});
afterAll(() => forum?.stop());

/** How much a series (the sum of the samples of `name` with `labels`) moved between the two scrapes. */
const moved = (name: string, labels?: Record<string, string>) => after.sum(name, labels) - before.sum(name, labels);

describe("npm start's metrics on METRICS_PORT", () => {
  it('time every answer by route pattern, method and status', () => {
    expect(after.families.get('forum_http_request_duration_seconds')).toBe('histogram');
    expect(moved('forum_http_request_duration_seconds_count', { route: '/api/posts', method: 'POST', status: '201' })).toBe(1);
    expect(moved('forum_http_request_duration_seconds_count', { route: '/api/posts', method: 'POST', status: '429' })).toBe(1);
    expect(moved('forum_http_request_duration_seconds_count', { route: '/api/posts/:id/vote', method: 'PUT', status: '422' })).toBe(1);
    expect(moved('forum_http_request_duration_seconds_sum', { route: '/api/posts', method: 'POST' })).toBeGreaterThan(0);
    // routes, never URLs: no series names a post's id
    expect(after.find('forum_http_request_duration_seconds_count').some((sample) => sample.labels.route!.includes(postId))).toBe(false);
  });

  it('count commands by name and outcome, refusals by their code', () => {
    expect(moved('forum_commands_total', { command: 'createPost', outcome: 'accepted' })).toBe(1);
    expect(moved('forum_commands_total', { command: 'createPost', outcome: 'RATE_LIMITED' })).toBe(1);
    expect(moved('forum_commands_total', { outcome: 'OWN_POST_VOTE' })).toBe(1);
    expect(moved('forum_commands_total', { outcome: 'accepted' })).toBe(2);
  });

  it("count the write limits' refusals by kind", () => {
    expect(moved('forum_write_limit_refusals_total', { kind: 'post' })).toBe(1);
  });

  it('count appends, their events and the group commits', () => {
    expect(moved('forum_eventstore_appends_total')).toBeGreaterThanOrEqual(1);
    expect(moved('forum_eventstore_appended_events_total')).toBeGreaterThanOrEqual(1);
    expect(moved('forum_eventstore_group_commit_size_count')).toBeGreaterThanOrEqual(1);
    expect(after.families.get('forum_eventstore_group_commit_size')).toBe('histogram');
  });

  it("count the visitors' memory's hits and misses", () => {
    expect(moved('forum_visitor_cache_lookups_total', { reader: 'visitor', result: 'hit' })).toBeGreaterThanOrEqual(1);
    expect(moved('forum_visitor_cache_lookups_total', { reader: 'visitor', result: 'miss' })).toBeGreaterThanOrEqual(1);
  });

  it('show the open change streams', () => {
    expect(before.sum('forum_live_streams_open')).toBe(0);
    expect(after.sum('forum_live_streams_open')).toBe(1);
  });

  it("show each database pool's connections", () => {
    for (const pool of ['main', 'requests', 'read', 'eventstore', 'eventstore-log']) {
      expect(after.find('forum_db_pool_connections', { pool, state: 'used' }), pool).toHaveLength(1);
      expect(after.find('forum_db_pool_connections', { pool, state: 'idle' }), pool).toHaveLength(1);
      expect(after.find('forum_db_pool_waiting_requests', { pool }), pool).toHaveLength(1);
    }
    expect(after.sum('forum_db_pool_max_connections', { pool: 'main' })).toBe(20);
    expect(after.sum('forum_db_pool_connections', { pool: 'eventstore' })).toBeGreaterThan(0);
  });

  it("show every projection's lag, in events and seconds, and its build's progress", () => {
    for (const { name } of allProjections) {
      expect(after.find('forum_projection_lag_events', { projection: name, role: 'live' }), name).toHaveLength(1);
      expect(after.find('forum_projection_lag_seconds', { projection: name, role: 'live' }), name).toHaveLength(1);
      expect(after.find('forum_projection_build_progress_ratio', { projection: name, role: 'live' }), name).toHaveLength(1);
    }
  });

  it('show readiness, and the process’s own metrics under their standard names', () => {
    expect(after.sum('forum_ready')).toBe(1);
    expect(after.sum('forum_readiness_check_ok', { check: 'database' })).toBe(1);
    expect(after.families.get('process_cpu_seconds_total')).toBe('counter');
    expect(after.families.has('nodejs_eventloop_lag_seconds')).toBe(true);
    // every series says which process it is
    expect(after.samples.every((sample) => sample.labels.service === 'forum')).toBe(true);
  });

  it('show the lag and a rebuild moving while the projections stand still', async () => {
    const admin = await forum.demoAdmin();
    const other = await forum.newUser('Unapplied Author');
    await forum.runner.stop();
    await forum.call('POST', '/api/posts', { token: other.token, body: { title: 'Not applied yet', description: 'Waiting', tags: [] }, expect: 201 });
    await forum.call('POST', '/api/admin/projections/tags/rebuild', { token: admin.token, expect: 202 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const still = await scrape(metricsUrl);
    expect(still.sum('forum_projection_lag_events', { projection: 'posts', role: 'live' })).toBeGreaterThanOrEqual(1);
    expect(still.sum('forum_projection_lag_seconds', { projection: 'posts', role: 'live' })).toBeGreaterThan(0);
    const rebuild = still.find('forum_projection_build_progress_ratio', { projection: 'tags', role: 'building' });
    expect(rebuild).toHaveLength(1);
    expect(rebuild[0]!.value).toBeLessThan(1);
  });
});

describe('where the metrics are not', () => {
  it('the public port has no /metrics', async () => {
    const answer = await fetch(`http://127.0.0.1:${forum.port}/metrics`);
    expect(answer.status).toBe(404);
    expect(await answer.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'No such endpoint' } });
  });

  it('the metrics listener answers nothing but /metrics', async () => {
    expect((await fetch(new URL('/api/posts', metricsUrl))).status).toBe(404);
    expect((await fetch(metricsUrl)).headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  });
});
