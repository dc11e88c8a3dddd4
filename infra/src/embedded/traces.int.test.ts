import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-node';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { createPostgresEventStore } from '@forum/eventstore';
import { createHttpServer, createLogger } from '@forum/platform';
import { createTestDatabase, testEventMetadata } from '@forum/platform/testing';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { startTestForum, type NewUser, type TestForum } from '../testing/forum.ts';
import { openStream } from '../testing/sse-client.ts';
import { apiProxy } from '../replicated/api-proxy.ts';
import { ReplicaSet } from '../replicated/replica-set.ts';
import { registerTracing } from '../tracing-sdk.ts';
import type { Tracing } from '../tracing.ts';

/**
 * Traces (docs/operations.md#traces) through the whole forum in one process, its spans kept in
 * memory: a command sent with a W3C traceparent is one trace from the request to the append, its
 * events carry the command's span, and the projections' batches and the change stream's message join
 * it; a traceparent that is not one is ignored.
 */
const exporter = new InMemorySpanExporter();
let tracing: Tracing;
let forum: TestForum;
let author: NewUser;

beforeAll(async () => {
  tracing = registerTracing('test', new SimpleSpanProcessor(exporter));
  forum = await startTestForum();
  author = await forum.newUser('Traced Author');
  await forum.register(author.token);
  // a member: the free post limit does not stand in the way of the posts below
  await forum.call('PATCH', `/api/users/membership/${author.email}`, { token: (await forum.demoAdmin()).token });
}, 60_000);
afterAll(async () => {
  await forum?.stop();
  await tracing?.stop();
});

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const spans = () => exporter.getFinishedSpans();
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const named = (name: string, traceId: string) => spans().filter((span) => span.name === name && span.spanContext().traceId === traceId);

/** A post created through the gateway with these headers: its id and the request's answer. */
async function createPost(title: string, headers: Record<string, string>) {
  const response = await forum.api('/api/posts', { method: 'POST', token: author.token, json: { title, description: 'Traced', tags: [] }, headers });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string; position: string };
}

/** The stored metadata of the post's PostCreated event. */
async function metadataOf(postId: string): Promise<Record<string, unknown>> {
  const { rows } = await forum.db.raw<{ rows: { metadata: Record<string, unknown> }[] }>(
    `SELECT metadata FROM eventstore.events WHERE type = 'PostCreated' AND data->>'postId' = ?`,
    [postId],
  );
  return rows[0]!.metadata;
}

describe('a command sent with a W3C traceparent', () => {
  it('is one trace from the request to the append, and the projections and the change stream join it', async () => {
    const stream = await openStream(forum.url.replace('localhost', '127.0.0.1'), '/api/stream?topics=posts');
    onTestFinished(() => stream.close());
    await stream.next((message) => message.event === 'ready');
    const traceId = hex(16);
    const callerSpan = hex(8);

    const { id: postId } = await createPost('Traced post', { traceparent: `00-${traceId}-${callerSpan}-01`, tracestate: 'vendor=1' });
    await stream.next((message) => message.event === 'post-created' && message.data.postId === postId);

    const [request] = named('POST /api/posts', traceId);
    expect(request!.kind).toBe(SpanKind.SERVER);
    expect(parentOf(request!)).toBe(callerSpan);
    expect(request!.attributes).toMatchObject({ 'http.request.method': 'POST', 'http.route': '/api/posts', 'http.response.status_code': 201 });
    expect(request!.spanContext().traceState?.get('vendor')).toBe('1');

    const [command] = named('command createPost', traceId);
    expect(parentOf(command!)).toBe(request!.spanContext().spanId);
    expect(command!.attributes).toMatchObject({ 'forum.command.type': 'createPost', 'forum.command.outcome': 'appended' });

    const [append] = named('eventstore append', traceId);
    expect(parentOf(append!)).toBe(command!.spanContext().spanId);
    expect(append!.attributes).toMatchObject({ 'forum.event.position': command!.attributes['forum.event.position'] });
    expect(append!.attributes['forum.append.events']).toBeGreaterThanOrEqual(1);

    // the event carries the command's span, which the projections' batches and the stream's message are children of
    expect((await metadataOf(postId)).traceparent).toBe(`00-${traceId}-${command!.spanContext().spanId}-01`);
    await expect.poll(() => named('projection posts', traceId).length).toBe(1);
    const [projection] = named('projection posts', traceId);
    expect(parentOf(projection!)).toBe(command!.spanContext().spanId);
    expect(projection!.attributes).toMatchObject({ 'forum.projection.name': 'posts', 'forum.position.to': command!.attributes['forum.event.position'] });
    await expect.poll(() => named('change stream publish', traceId).length).toBe(1);
    const [published] = named('change stream publish', traceId);
    expect(parentOf(published!)).toBe(command!.spanContext().spanId);
    expect(published!.attributes['forum.stream.deliveries']).toBeGreaterThanOrEqual(1);
  });
});

describe('a command refused', () => {
  it('says so on its span, by the refusal’s code, without marking it failed', async () => {
    const { id: postId } = await createPost('Not to be liked by its author', {});
    exporter.reset();
    const response = await forum.api(`/api/posts/${postId}/vote`, { method: 'PUT', token: author.token, json: { vote: 'up' } });
    expect(response.status).toBe(422);
    await expect.poll(() => spans().filter((span) => span.name === 'PUT /api/posts/:id/vote').length).toBe(1);
    const [command] = spans().filter((span) => span.name === 'command setVote');
    expect(command?.attributes).toMatchObject({ 'forum.command.outcome': 'refused', 'forum.error.code': 'OWN_POST_VOTE' });
    expect(command!.status.code).toBe(SpanStatusCode.UNSET);
    const [request] = spans().filter((span) => span.name === 'PUT /api/posts/:id/vote');
    expect(request!.attributes['http.response.status_code']).toBe(422);
    expect(request!.status.code).toBe(SpanStatusCode.UNSET);
  });
});

describe('a health probe', () => {
  it('makes no span: gateways and load balancers ask every second', async () => {
    exporter.reset();
    for (const path of ['/healthz', '/readyz']) expect((await forum.api(path)).status).toBe(200);
    await (await forum.api('/api/tags')).arrayBuffer();
    await expect.poll(() => spans().filter((span) => span.name === 'GET /api/tags').length).toBe(1);
    expect(spans().filter((span) => span.kind === SpanKind.SERVER && span.name !== 'GET /api/tags')).toEqual([]);
  });
});

describe('a traceparent that is not one', () => {
  it.each([
    ['not hex', 'zz-not-a-trace-parent'],
    ['an all-zero trace id', `00-${'0'.repeat(32)}-${'1'.repeat(16)}-01`],
    ['upper-case hex', `00-${'AB'.repeat(16)}-${'CD'.repeat(8)}-01`],
    ['a version 00 with more fields', `00-${'ab'.repeat(16)}-${'cd'.repeat(8)}-01-extra`],
    ['a long one', `00-${'ab'.repeat(16)}-${'cd'.repeat(8)}-01${'-'.repeat(4000)}`],
  ])('(%s) is ignored: the command answers as usual, in a trace of its own', async (_, traceparent) => {
    exporter.reset();
    const { id: postId } = await createPost(`Hostile ${hex(2)}`, { traceparent });
    // a request's span ends once its answer is sent: the client may have it a moment before
    await expect.poll(() => spans().filter((span) => span.name === 'POST /api/posts').length).toBe(1);
    const [request] = spans().filter((span) => span.name === 'POST /api/posts');
    expect(request!.parentSpanContext).toBeUndefined();
    expect(traceparent).not.toContain(request!.spanContext().traceId);
    const stored = (await metadataOf(postId)).traceparent;
    expect(stored).toMatch(new RegExp(`^00-${request!.spanContext().traceId}-[0-9a-f]{16}-01$`));
  });
});

describe('appends committed together (group commit)', () => {
  it('each keep their span; the commit is a span of its own, linked to each append and each append to it', async () => {
    const database = await createTestDatabase('traces');
    const store = await createPostgresEventStore({ connectionString: database.url });
    onTestFinished(async () => {
      await store.close();
      await database.drop();
    });
    exporter.reset();
    // asked for in one turn of the event loop: one statement, one transaction
    const streams = ['a', 'b', 'c', 'd'].map((id) => `traced-${id}`);
    await Promise.all(
      streams.map((streamId) => store.append([{ streamId, expectedVersion: 'no_stream', events: [{ type: 'T', data: {}, metadata: testEventMetadata() }] }])),
    );
    // (the forum beside it may append meanwhile: these are the commit of four and the appends it links)
    const [commit, ...more] = spans().filter((span) => span.name === 'eventstore group commit' && span.attributes['forum.append.streams'] === 4);
    expect(more).toEqual([]);
    expect(commit!.parentSpanContext).toBeUndefined();
    const linked = new Set(commit!.links.map((link) => link.context.spanId));
    const appends = spans().filter((span) => span.name === 'eventstore append' && linked.has(span.spanContext().spanId));
    expect(appends).toHaveLength(4);
    for (const append of appends) {
      expect(append.parentSpanContext).toBeUndefined();
      expect(append.links.map((link) => link.context.spanId)).toEqual([commit!.spanContext().spanId]);
    }
  });
});

describe('the replicated layout’s gateway', () => {
  it('passes its own span on to the service in traceparent (the client’s as its parent), and never a traceparent that is not one', async () => {
    const logger = createLogger('traces-test', 'silent');
    const replica = createServer((req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(req.headers)));
    await new Promise<void>((resolve) => replica.listen(0, '127.0.0.1', resolve));
    const set = new ReplicaSet('query-service', [`http://127.0.0.1:${(replica.address() as AddressInfo).port}`], logger);
    const gateway = createHttpServer({ logger });
    await gateway.register(apiProxy({ command: set, query: set, trustProxy: () => false }), { prefix: '/api' });
    const base = await gateway.listen({ port: 0, host: '127.0.0.1' });
    onTestFinished(async () => {
      await gateway.close();
      await set.close();
      replica.close();
    });
    const passedOn = async (headers: Record<string, string>) => {
      exporter.reset();
      const sent = (await (await fetch(`${base}/api/posts`, { headers })).json()) as Record<string, string>;
      await expect.poll(() => spans().filter((span) => span.name === 'GET /api/*').length).toBe(1);
      const [request] = spans().filter((span) => span.name === 'GET /api/*');
      return { sent, request: request! };
    };

    const traceId = hex(16);
    const callerSpan = hex(8);
    const traced = await passedOn({ traceparent: `00-${traceId}-${callerSpan}-01`, tracestate: 'vendor=1' });
    expect(parentOf(traced.request)).toBe(callerSpan);
    expect(traced.sent.traceparent).toBe(`00-${traceId}-${traced.request.spanContext().spanId}-01`);
    expect(traced.sent.tracestate).toBe('vendor=1');

    const hostile = await passedOn({ traceparent: 'zz-not-one', tracestate: 'vendor=1' });
    expect(hostile.request.parentSpanContext).toBeUndefined();
    expect(hostile.sent.traceparent).toBe(`00-${hostile.request.spanContext().traceId}-${hostile.request.spanContext().spanId}-01`);
    expect(hostile.sent.tracestate).toBeUndefined();
  });
});
