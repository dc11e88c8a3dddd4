import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../testing/forum.ts';
import { freePort } from './postgres.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const children: ChildProcess[] = [];
let forum: TestForum;

/** One service's own entry point, as a separate process, answering on `port`. */
async function runAlone(workspace: string, env: Record<string, string>): Promise<string> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, workspace, 'src/main.ts')], {
    env: { ...process.env, ...env, PORT: String(port), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  children.push(child);
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`${workspace} exited: ${stderr}`);
    const ready = await fetch(`${base}/readyz`).then((r) => r.status === 200, () => false);
    if (ready) return base;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${workspace} not ready: ${stderr}`);
}

beforeAll(async () => {
  // The embedded stack stands in for the external PostgreSQL and the external issuer
  forum = await startTestForum();
});
afterAll(async () => {
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    ),
  );
  await forum?.stop();
});

describe('the distributed layout: each service on its own', () => {
  it('command-service, query-service and the projection runner run alone against DATABASE_URL and OIDC_ISSUER', { timeout: 90_000 }, async () => {
    const env = { DATABASE_URL: forum.databaseUrl, OIDC_ISSUER: forum.issuer, OIDC_JWKS_URL: `http://127.0.0.1:${forum.port}/realms/forum/protocol/openid-connect/certs` };
    const command = await runAlone('command-service', { ...env, PUBLIC_URL: forum.url });
    const [query, projections] = await Promise.all([
      runAlone('query-service', { ...env, COMMAND_SERVICE_URL: command }),
      runAlone('projections', { DATABASE_URL: forum.databaseUrl }),
    ]);
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
