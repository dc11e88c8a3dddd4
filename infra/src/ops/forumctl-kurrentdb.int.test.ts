import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { START } from '@forum/contracts';
import { createKurrentDbEventStore } from '@forum/eventstore-kurrentdb';
import { kurrentDbForTests } from '@forum/eventstore-kurrentdb/testing';
import { createTestDatabase } from '@forum/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../testing/forum.ts';
import { runForumctl } from './forumctl.ts';
import type { LoggedEvent } from './log-file.ts';

/**
 * A forum moves between the stores: `forumctl export` from PostgreSQL, `import` into KurrentDB
 * (EVENTSTORE_URL), and back. Needs an empty KurrentDB 25.1+: a fresh testcontainers server, or
 * EVENTSTORE_URL at one nothing has written to; skipped, saying what is missing, otherwise. (The
 * PostgreSQL → PostgreSQL path is forumctl.int.test.ts's.)
 */
const server = await kurrentDbForTests();
let missing = server.url === null ? server.missing : null;
if (server.url !== null) {
  const probe = await createKurrentDbEventStore({ connectionString: server.url });
  if ((await probe.head()).globalPosition !== START.globalPosition)
    missing = 'EVENTSTORE_URL’s log is not empty: the import needs an empty KurrentDB (unset it to use a fresh testcontainers server)';
  await probe.close();
}
if (missing) console.warn(`forumctl export/import with KurrentDB skipped: ${missing}`);

/**
 * An export's events without their positions (each store numbers its own: toEqual passes over a
 * property that is undefined), times to the millisecond (KurrentDB keeps no finer).
 */
const events = (text: string) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const event = JSON.parse(line) as LoggedEvent;
      return { ...event, position: undefined, recordedAt: new Date(event.recordedAt).toISOString() };
    });

describe.skipIf(missing !== null)(missing ? `forumctl with KurrentDB (skipped: ${missing})` : 'forumctl with KurrentDB', () => {
  let forum: TestForum;
  let dir: string;
  beforeAll(async () => {
    forum = await startTestForum();
    dir = await mkdtemp(path.join(os.tmpdir(), 'forumctl-kdb-'));
  });
  afterAll(async () => {
    await forum?.stop();
    await rm(dir, { recursive: true, force: true });
    if (server.url !== null) await server.stop();
  });

  async function ctl(args: string[], databaseUrl: string, eventStoreUrl?: string) {
    let out = '';
    let err = '';
    const code = await runForumctl(args, databaseUrl, { out: (t) => (out += t), err: (t) => (err += t) }, eventStoreUrl);
    return { code, out, err };
  }

  it(
    'export from PostgreSQL → import into KurrentDB → export → import into PostgreSQL: the same events, streams and versions',
    { timeout: 120_000 },
    async () => {
      const user = await forum.newUser('Mover');
      for (let i = 0; i < 3; i++)
        await forum.api('/api/posts', { method: 'POST', token: user.token, json: { title: `Moved ${i} "quoted" é`, description: 'x', tags: ['React'] } });
      const fromPostgres = path.join(dir, 'postgres.ndjson');
      expect((await ctl(['export', '--out', fromPostgres], forum.databaseUrl)).code).toBe(0);

      const keys = await createTestDatabase('kdb_import_keys');
      const back = await createTestDatabase('kdb_back');
      try {
        const imported = await ctl(['import', fromPostgres], keys.url, server.url!);
        expect(imported.code, imported.err).toBe(0);
        const fromKurrent = path.join(dir, 'kurrentdb.ndjson');
        expect((await ctl(['export', '--out', fromKurrent], keys.url, server.url!)).code).toBe(0);
        const [a, b] = await Promise.all([readFile(fromPostgres, 'utf8'), readFile(fromKurrent, 'utf8')]);
        expect(events(b)).toEqual(events(a));
        expect(events(a).length).toBeGreaterThan(20);
        // KurrentDB's export numbers its events in log order
        expect(
          b
            .split('\n')
            .filter(Boolean)
            .map((line) => (JSON.parse(line) as LoggedEvent).position),
        ).toEqual(events(b).map((_, i) => i + 1));
        // a second import into the now non-empty log is refused
        expect((await ctl(['import', fromPostgres], keys.url, server.url!)).code).not.toBe(0);

        expect((await ctl(['import', fromKurrent], back.url)).code).toBe(0);
        const again = path.join(dir, 'again.ndjson');
        expect((await ctl(['export', '--out', again], back.url)).code).toBe(0);
        expect(events(await readFile(again, 'utf8'))).toEqual(events(a));
      } finally {
        await keys.drop();
        await back.drop();
      }
    },
  );
});
