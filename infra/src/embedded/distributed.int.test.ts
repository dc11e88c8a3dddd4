import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../testing/forum.ts';
import { startService, stopServices } from '../testing/processes.ts';

let forum: TestForum;

beforeAll(async () => {
  // The embedded stack stands in for the external PostgreSQL and the external issuer
  forum = await startTestForum();
});
afterAll(async () => {
  await stopServices();
  await forum?.stop();
});

describe('the distributed layout: each service on its own', () => {
  it('command-service, query-service and the projection runner run alone against DATABASE_URL and OIDC_ISSUER', { timeout: 90_000 }, async () => {
    const env = {
      DATABASE_URL: forum.databaseUrl,
      OIDC_ISSUER: forum.issuer,
      OIDC_JWKS_URL: `http://127.0.0.1:${forum.port}/realms/forum/protocol/openid-connect/certs`,
    };
    const command = await startService('command-service', { ...env, PUBLIC_URL: forum.url });
    const [query, projections] = await Promise.all([startService('query-service', env), startService('projections', { DATABASE_URL: forum.databaseUrl })]);
    expect((await fetch(`${command}/healthz`)).status).toBe(200);
    expect((await fetch(`${projections}/readyz`)).status).toBe(200);

    const token = await forum.tokenFor('alice@forum.local');
    const created = await fetch(`${command}/api/posts`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: 'Written by the lone command-service', description: 'Read by the lone query-service', tags: [] }),
    });
    expect(created.status).toBe(201);
    const { id, position } = (await created.json()) as { id: string; position: string };
    const read = await fetch(`${query}/api/posts/${id}`, { headers: { 'X-Min-Position': position } });
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ _id: id, title: 'Written by the lone command-service', authorName: 'Alice Martin' });
    expect((await fetch(`${command}/api/posts`, { method: 'POST' })).status).toBe(401);

    // a subject's first request to the lone query-service is registered through the lone command-service
    await forum.realm!.accounts.create({ email: 'hana@forum.local', password: 'Secret#2026', name: 'Hana' });
    const hana = await forum.tokenFor('hana@forum.local', 'Secret#2026');
    const me = await fetch(`${query}/api/me`, { headers: { Authorization: `Bearer ${hana}` } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ name: 'Hana', email: 'hana@forum.local', role: 'user' });
  });
});
