import { ERROR_STATUS, type ErrorBody } from '@forum/contracts';
import { errorsOf } from '@forum/platform';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../testing/forum.ts';

/**
 * The API document (GET /api/openapi.json, docs/api.md) against the forum's route table: every route
 * of both services is in it with every error it declares (API_ERRORS, its contexts' and its own),
 * each under its status with its code; what a route answers to a request it must refuse is among
 * them; every route has its success answer with its schema, its query's parameters and the headers
 * it reads and answers; and the document is valid OpenAPI 3.1 by a validator of the standard's
 * schemas. That the answers are as the document says is held by every API test: the test forum
 * checks each success answer against its route's declaration (answerMismatch) and fails at stop().
 */
let forum: TestForum;
let document: OpenApi;

interface OpenApi {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
}
interface Operation {
  parameters?: { in: string; name: string }[];
  responses: Record<string, { content?: Record<string, { schema?: CodeSchema }>; headers?: Record<string, unknown> }>;
}
interface CodeSchema {
  properties?: { error?: { properties?: { code?: { enum?: string[] } } } };
}

beforeAll(async () => {
  forum = await startTestForum();
  const response = await fetch(`${forum.url}/api/openapi.json`);
  expect(response.status).toBe(200);
  document = (await response.json()) as OpenApi;
});
afterAll(() => forum?.stop());

/** 'GET /api/posts/:id' → ['get', '/api/posts/{id}'], as OpenAPI writes a path. */
const operationOf = (route: string) => {
  const [method, path] = route.split(' ') as [string, string];
  return [method.toLowerCase(), path.replace(/:(\w+)/g, '{$1}')] as const;
};

/** The codes the document lists under `status` for an operation. */
function documentedCodes(route: string, status: number): string[] {
  const [method, path] = operationOf(route);
  return document.paths[path]?.[method]?.responses[String(status)]?.content?.['application/json']?.schema?.properties?.error?.properties?.code?.enum ?? [];
}

/** The success answers (2xx) the document gives an operation: status → media types with a schema. */
function successes(route: string): Record<string, string[]> {
  const [method, path] = operationOf(route);
  const responses = document.paths[path]?.[method]?.responses ?? {};
  return Object.fromEntries(
    Object.entries(responses)
      .filter(([status]) => status.startsWith('2'))
      .map(([status, response]) => [status, Object.entries(response.content ?? {}).flatMap(([media, { schema }]) => (schema ? [media] : []))]),
  );
}

/** The parameters of an operation, as `in:name`. */
function parametersOf(route: string): string[] {
  const [method, path] = operationOf(route);
  return (document.paths[path]?.[method]?.parameters ?? []).map((parameter) => `${parameter.in}:${parameter.name}`);
}

/** The headers an operation's success answers may carry. */
function answerHeadersOf(route: string): string[] {
  const [method, path] = operationOf(route);
  const responses = document.paths[path]?.[method]?.responses ?? {};
  return [...new Set(Object.entries(responses).flatMap(([status, response]) => (status.startsWith('2') ? Object.keys(response.headers ?? {}) : [])))];
}

/** Routes whose success answer is not JSON, and what it is instead. */
const NOT_JSON: Readonly<Record<string, string>> = {
  // Server-Sent Events, written to the socket by the route itself: documented as text/event-stream
  'GET /api/stream': 'text/event-stream',
};

/** The paged lists' query parameters: react-admin's range beside the list's own page, or the page alone. */
const RANGE = ['range', 'sort', 'filter'];
const PAGED: Readonly<Record<string, readonly string[]>> = {
  'GET /api/posts': ['page', 'sort', ...RANGE],
  'GET /api/posts/search': ['tag', 'q', 'page'],
  'GET /api/posts/:id/comments': ['order', 'after', 'limit'],
  'GET /api/users/:id': ['page'],
  'GET /api/me/notifications': ['page', 'unread'],
  'GET /api/announcements': RANGE,
  'GET /api/admin/tags': RANGE,
  'GET /api/admin/users': ['page', 'search', ...RANGE],
  'GET /api/admin/contact-messages': ['page', ...RANGE],
  'GET /api/admin/audit': ['page', 'actor', 'type', 'since', 'until', ...RANGE],
  'GET /api/admin/projections': RANGE,
  'GET /api/admin/snapshots': RANGE,
  'GET /api/admin/reported-comments': RANGE,
  'GET /api/admin/reports': ['status', 'page'],
  'GET /api/admin/history/:kind/:id': ['after', 'limit'],
  'GET /api/admin/history/:kind/:id/states': ['after', 'limit'],
};

/**
 * The commands that read no Idempotency-Key, and why: the first registration and the membership
 * purchase are idempotent by themselves (one registration per account; one purchase attempt at a
 * time, resumed), a rebuild request is one per projection build, and the Contact page and an
 * email's unsubscribe link are a visitor's (a key is scoped to a signed-in caller).
 */
const NOT_KEYED = [
  'POST /api/me/registration',
  'PATCH /api/users/membership/:email',
  'POST /api/admin/projections/:name/rebuild',
  'POST /api/contact',
  'POST /api/unsubscribe',
];

const apiRoutes = () =>
  [
    ...forum.apps.command.routes.map((route) => [route, forum.apps.command] as const),
    ...forum.apps.query.routes.map((route) => [route, forum.apps.query] as const),
  ].filter(([route]) => route.includes(' /api/'));

describe('the API document', () => {
  it('is valid OpenAPI 3.1', async () => {
    expect(document.openapi).toBe('3.1.0');
    const result = await new Validator().validate(document as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('has every route of both services, and no operation that is not one', () => {
    const routes = apiRoutes().map(([route]) => operationOf(route).join(' '));
    expect(routes.length).toBeGreaterThan(50);
    const operations = Object.entries(document.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method} ${path}`));
    expect(operations.sort()).toEqual([...new Set(routes)].sort());
  });

  it('lists every error each route declares, under its status with its code', () => {
    const missing: string[] = [];
    for (const [route, app] of apiRoutes())
      for (const code of errorsOf(app.schemaOf(route)))
        if (!documentedCodes(route, ERROR_STATUS[code]).includes(code)) missing.push(`${route}: ${ERROR_STATUS[code]} ${code}`);
    expect(missing).toEqual([]);
  });

  it('has the errors a route answers to requests it refuses: a query string not in UTF-8, a token that is none', async () => {
    const undocumented: string[] = [];
    for (const [route] of apiRoutes()) {
      const [method, path] = route.split(' ') as [string, string];
      const url = `${forum.url}${path.replace(/:(\w+)/g, 'x')}`;
      const body = method === 'GET' ? {} : { body: '{}', headers: { 'content-type': 'application/json' } };
      const probes: { url: string; headers: Record<string, string> }[] = [
        { url: `${url}?%FF`, headers: {} },
        { url, headers: { authorization: 'Bearer not-a-token' } },
      ];
      for (const probe of probes) {
        const response = await fetch(probe.url, { method, ...body, headers: { ...body.headers, ...probe.headers }, signal: AbortSignal.timeout(10_000) });
        if (response.status < 400) {
          await response.body?.cancel();
          undocumented.push(`${route} (${probe.url.slice(forum.url.length)}): answered ${response.status}, not an error`);
          continue;
        }
        const { error } = (await response.json()) as ErrorBody;
        if (!documentedCodes(route, response.status).includes(error.code))
          undocumented.push(`${route} (${probe.url.slice(forum.url.length)}): ${response.status} ${error.code}`);
      }
    }
    expect(undocumented).toEqual([]);
  });

  it('gives every route its success answer with a schema: JSON, but for the change stream', () => {
    const missing: string[] = [];
    for (const [route] of apiRoutes()) {
      const answers = Object.entries(successes(route));
      if (answers.length === 0) missing.push(`${route}: no success answer`);
      for (const [status, media] of answers)
        if (media.join() !== (NOT_JSON[route] ?? 'application/json')) missing.push(`${route}: ${status} as ${media.join() || 'nothing'}`);
    }
    expect(missing).toEqual([]);
  });

  it('lists the query parameters of every paged list, and the headers of its answer', () => {
    for (const [route, names] of Object.entries(PAGED))
      expect(parametersOf(route), route).toEqual(expect.arrayContaining(names.map((name) => `query:${name}`)));
    for (const route of ['GET /api/admin/users', 'GET /api/admin/audit', 'GET /api/announcements', 'GET /api/admin/snapshots'])
      expect(answerHeadersOf(route), route).toContain('Content-Range');
    for (const route of ['GET /api/tags', 'GET /api/my-posts/:email', 'GET /api/comments/:postId', 'GET /api/announcements'])
      expect(answerHeadersOf(route), route).toContain('X-Total-Count');
  });

  it('lists Idempotency-Key on every command that reads one, X-Event-Position on every command’s answer, X-Min-Position and X-Read-Behind on every read', () => {
    const commands = forum.apps.command.routes.filter((route) => route.includes(' /api/'));
    for (const route of commands) {
      expect(parametersOf(route).includes('header:Idempotency-Key'), route).toBe(!NOT_KEYED.includes(route));
      expect(answerHeadersOf(route), route).toContain('X-Event-Position');
    }
    // the change stream is no read to wait for (docs/live.md)
    const reads = forum.apps.query.routes.filter((route) => route.startsWith('GET /api/') && route !== 'GET /api/stream');
    for (const route of reads) {
      expect(parametersOf(route), route).toContain('header:X-Min-Position');
      expect(answerHeadersOf(route), route).toContain('X-Read-Behind');
    }
  });

  it('is what real answers are: a read and a command of each kind answer as their routes declare', async () => {
    const admin = await forum.demoAdmin();
    const { id } = await forum.call<{ id: string }>('POST', '/api/posts', {
      token: admin.token,
      body: { title: 'Documented', description: 'As the document says', tags: ['React'] },
      headers: { 'Idempotency-Key': 'openapi-1' },
      expect: 201,
    });
    await forum.call('PUT', `/api/posts/${id}/vote`, { token: (await forum.newUser('Voter')).token, body: { vote: 'up' } });
    for (const path of [
      '/api/posts',
      '/api/posts?range=[0,4]',
      `/api/posts/${id}`,
      '/api/posts/search?tag=React',
      '/api/posts/search?q=documented',
      '/api/tags',
    ])
      await forum.call('GET', path, { token: admin.token });
    for (const path of ['/api/admin/tags?range=[0,2]', '/api/admin/users', '/api/admin/users?range=[0,2]', '/api/admin/audit', '/api/announcements'])
      await forum.call('GET', path, { token: admin.token });
    expect([...forum.apps.command.answersNotAsDeclared, ...forum.apps.query.answersNotAsDeclared]).toEqual([]);
  });
});
