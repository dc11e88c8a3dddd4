import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from './logger.ts';
import { listenForNotifications } from './notification-listener.ts';
import { createTestDatabase, waitFor } from './testing/index.ts';

const APP = 'forum-listener-test';

describe('listenForNotifications', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let admin: pg.Client;
  beforeAll(async () => {
    database = await createTestDatabase('listen');
    admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await database?.drop();
  });

  const sessions = async () =>
    (await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1', [APP])).rows.map(
      (row) => row.pid,
    );

  function listener() {
    const received: string[] = [];
    const logged: { level: number; msg: string }[] = [];
    let listening = 0;
    const logger = createLogger('test', 'info', {
      format: 'json',
      destination: { write: (line: string) => void logged.push(JSON.parse(line) as { level: number; msg: string }) },
    });
    const handle = listenForNotifications({
      connectionString: database.url,
      channels: ['test_one', 'test_two'],
      applicationName: APP,
      logger,
      firstRetryMs: 20,
      onNotification: (channel, payload) => received.push(`${channel}:${payload}`),
      onListening: () => listening++,
    });
    return { handle, received, logged, listening: () => listening };
  }

  it('still delivers a NOTIFY after the server terminated its session, having listened again on a new one', async () => {
    const { handle, received, logged, listening } = listener();
    try {
      await handle.started;
      expect(listening()).toBe(1);
      await admin.query(`SELECT pg_notify('test_one', 'before'), pg_notify('test_two', 'both channels')`);
      await waitFor(
        () => received.length,
        (n) => n === 2,
      );
      const [pid] = await sessions();
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      // onListening tells the caller that notifications may have been missed meanwhile
      await waitFor(
        () => listening(),
        (n) => n === 2,
      );
      expect(await sessions()).not.toContain(pid);
      await admin.query(`SELECT pg_notify('test_one', 'after')`);
      await waitFor(
        () => received,
        (all) => all.includes('test_one:after'),
      );
      expect(received).toEqual(['test_one:before', 'test_two:both channels', 'test_one:after']);
      expect(logged.map((line) => line.msg)).toEqual(['LISTEN session lost; connecting again', 'listening again']);
    } finally {
      await handle.close();
    }
  });

  it('close() ends its session: no callback afterwards, no attempt to connect again', async () => {
    const { handle, received, listening } = listener();
    await handle.started;
    await waitFor(sessions, (pids) => pids.length === 1);
    await handle.close();
    await waitFor(sessions, (pids) => pids.length === 0);
    await admin.query(`SELECT pg_notify('test_one', 'too late')`);
    expect(received).toEqual([]);
    expect(listening()).toBe(1);
  });

  it('rejects `started` when its first connection fails; close() stops the attempts after it', async () => {
    const handle = listenForNotifications({
      connectionString: database.url.replace(/\/[^/?]+(\?|$)/, '/no_such_database$1'),
      channels: ['test_one'],
      applicationName: APP,
      logger: createLogger('test', 'silent'),
      onNotification: () => {},
    });
    await expect(handle.started).rejects.toThrow(/no_such_database/);
    await handle.close();
  });
});
