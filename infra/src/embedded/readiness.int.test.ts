import { Writable } from 'node:stream';
import { allProjections, projectionStatus, readCheckpoint, readIndexNames } from '@forum/projections';
import { compareWithReplay } from '@forum/projections/verify';
import { createKnex, createLogger, type Knex } from '@forum/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSyntheticLog } from '../load/synthetic-log.ts';
import { createTestDatabase } from '@forum/platform/testing';
import { startTestForum, type TestForum } from '../testing/forum.ts';

/**
 * Readiness tells the truth (issue 18): a first start over an existing log replays it into builds
 * that are live from their start and build their read indexes only at the end; those whose
 * projection has a staged replay (posts, comments) stage the log range by range, as a rebuild does,
 * and equal a replay event by event. Until every live
 * build has every read index its projection declares, /readyz must not say ready (the home page
 * would scan whole tables). `READINESS_LOG_EVENTS` sets the log's size.
 */
const EVENTS = Number(process.env.READINESS_LOG_EVENTS ?? 100_000);
/**
 * The lag aside: a replay of a log this size goes under the usual READY_MAX_LAG (10,000) a moment
 * before its indexes are built, a window a poll may miss. Allowed any lag, the forum is not ready
 * for its read indexes alone during the whole replay, and a readiness blind to them says ready at once.
 */
const READY_MAX_LAG = 100_000_000;

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Knex;
let forum: TestForum | undefined;

beforeAll(async () => {
  database = await createTestDatabase('readiness');
  await loadSyntheticLog(database.url, { events: EVENTS, seed: 18 });
  db = createKnex(database.url, { max: 2 });
}, 120_000);
afterAll(async () => {
  await forum?.stop();
  await db?.destroy();
  await database?.drop();
});

/** Per projection, the declared read indexes its live build does not hold (valid) yet; a projection with no live build lacks all. */
async function missingIndexes(): Promise<Record<string, string[]>> {
  const live = (await projectionStatus(db)).filter((s) => s.role === 'live');
  const { rows } = await db.raw<{ rows: { schema: string; name: string }[] }>(
    `SELECT x.schemaname AS schema, x.indexname AS name FROM pg_indexes x
     JOIN pg_class c ON c.relname = x.indexname JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = x.schemaname
     JOIN pg_index i ON i.indexrelid = c.oid
     WHERE x.schemaname = ANY(?) AND i.indisvalid AND i.indisready`,
    [live.map((s) => s.schema)],
  );
  const held = new Set(rows.map((r) => `${r.schema}.${r.name}`));
  const missing: Record<string, string[]> = {};
  for (const projection of allProjections) {
    const builds = live.filter((s) => s.name === projection.name);
    const lacking = readIndexNames(projection).filter((name) => builds.length === 0 || builds.some((b) => !held.has(`${b.schema}.${name}`)));
    if (lacking.length > 0) missing[projection.name] = lacking;
  }
  return missing;
}

describe('/readyz on a first start over an existing log', () => {
  it('says ready only once every live build holds every read index its projection declares, and then does', { timeout: 180_000 }, async () => {
    // the runner's lines, as an operator reads them
    const lines: { msg: string; projection?: string; events?: number }[] = [];
    const logger = createLogger('readiness-test', 'info', {
      format: 'json',
      destination: new Writable({ write: (chunk, _encoding, done) => (lines.push(JSON.parse(String(chunk)) as (typeof lines)[number]), done()) }),
    });
    forum = await startTestForum({ DATABASE_URL: database.url, DEMO_DATA: 'false', READY_MAX_LAG: String(READY_MAX_LAG) }, { logger });
    const seen = { notReady: 0, namingMissingIndexes: 0, slowestMs: 0 };
    // a bound on 'never', not a speed target: about 35 s on a quiet machine, twice that under a whole run's load
    const deadline = Date.now() + 150_000;
    let ready = false;
    while (!ready) {
      expect(Date.now(), `never ready: last seen ${JSON.stringify(seen)}`).toBeLessThan(deadline);
      // /readyz first, then the catalogue: an index there when /readyz answered is there after it
      const asked = performance.now();
      const response = await forum.api('/readyz');
      const answeredMs = performance.now() - asked;
      seen.slowestMs = Math.max(seen.slowestMs, Math.round(answeredMs));
      const body = (await response.json()) as { checks?: { projections?: { detail?: { missingIndexes?: string[] }[] } } };
      const missing = await missingIndexes();
      if (response.status === 200) {
        ready = true;
        expect(missing, 'ready while read indexes are missing').toEqual({});
      } else {
        expect(response.status).toBe(503);
        seen.notReady++;
        const detail = body.checks?.projections?.detail;
        if (Array.isArray(detail) && detail.some((d) => d.missingIndexes)) seen.namingMissingIndexes++;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    // the replay was seen, not ready and saying which indexes it waited for, before it was ready
    expect(seen.namingMissingIndexes).toBeGreaterThan(0);
    // ready it stays, every index there, for a while after
    let readyMs = 0;
    for (let i = 0; i < 10; i++) {
      const asked = performance.now();
      expect((await forum.api('/readyz')).status).toBe(200);
      readyMs = Math.max(readyMs, Math.round(performance.now() - asked));
      expect(await missingIndexes()).toEqual({});
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    // the projections with a staged replay staged the log, live from their start, and equal a replay event by event
    const staged = allProjections.filter((projection) => projection.replay !== undefined);
    expect(staged.map((projection) => projection.name).sort()).toEqual(['comments', 'posts']);
    for (const projection of staged) {
      const said = lines.filter((line) => line.msg === 'replay staged and settled' && line.projection === projection.name);
      expect(said, `${projection.name} staged the log`).toHaveLength(1);
      expect(said[0]!.events).toBeGreaterThan(EVENTS / 2);
      const live = (await projectionStatus(db)).find((status) => status.name === projection.name && status.role === 'live')!;
      const { position } = (await readCheckpoint(db, live))!;
      const compared = await compareWithReplay(db, forum.store, projection, { schema: live.schema, position }, { staged: false });
      expect(compared, `${projection.name} as a replay event by event`).toMatchObject({ ok: true });
    }
    console.log(
      `readiness over ${EVENTS} events: ${seen.notReady} answers not ready, ${seen.namingMissingIndexes} of them naming missing read indexes; slowest answer ${seen.slowestMs} ms, ${readyMs} ms once ready`,
    );
  });
});
