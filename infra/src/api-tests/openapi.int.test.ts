import { ERROR_STATUS, type ErrorBody } from '@forum/contracts';
import { errorsOf } from '@forum/platform';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../testing/forum.ts';

/**
 * The API document (GET /api/openapi.json, docs/api.md) against the forum's route table: every route
 * of both services is in it with every error it declares (API_ERRORS, its contexts' and its own),
 * each under its status with its code; what a route answers to a request it must refuse is among
 * them; and the document is valid OpenAPI 3.1 by a validator of the standard's schemas.
 */
let forum: TestForum;
let document: OpenApi;

interface OpenApi {
  openapi: string;
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema?: CodeSchema }> }> }>>;
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
});
