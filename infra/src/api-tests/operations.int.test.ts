import {
  HEADER_EVENT_POSITION,
  HEADER_MIN_POSITION,
  positionToken,
  type AuditPage,
  userStream,
  type PostsPage,
  type ProjectionStatus,
  type RebuildStarted,
} from '@forum/contracts';
import { postsProjection } from '@forum/projections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../testing/forum.ts';
import { containing, matching, objectContaining, waitFor } from '@forum/platform/testing';

/** The admin API of the operators' console: projection status and blue-green rebuilds. */
let forum: TestForum;
let admin: string;
let adminId: string;
let user: { id: string; token: string };
beforeAll(async () => {
  forum = await startTestForum();
  ({ id: adminId, token: admin } = await forum.demoAdmin());
  user = await forum.newUser('Operator Watcher');
  await forum.register(user.token);
});
afterAll(() => forum?.stop());

const statusOf = async () => {
  const response = await forum.api('/api/admin/projections', { token: admin });
  expect(response.status).toBe(200);
  return (await response.json()) as ProjectionStatus[];
};

describe('GET /api/admin/projections and POST /api/admin/projections/:name/rebuild', () => {
  it('lists every projection with its build, state, checkpoint and lag', async () => {
    const status = await statusOf();
    expect(status.map((s) => s.name).sort()).toEqual([
      'announcements',
      'audit',
      'comments',
      'contact',
      'notification-preferences',
      'notifications',
      'posts',
      'report_queue',
      'sitemap',
      'tags',
      'users',
    ]);
    expect(status.every((s) => s.state === 'live' && s.role === 'live' && s.error === null)).toBe(true);
    expect(status.find((s) => s.name === 'posts')).toMatchObject({
      version: postsProjection.version,
      build: 1,
      schema: `posts_v${postsProjection.version}`,
      checkpoint: matching(/^\d+\.\d+$/),
    });
  });

  it("answers react-admin's range protocol too: each build keyed <name>-<build>, the total in Content-Range", async () => {
    const all = await statusOf();
    const response = await forum.api('/api/admin/projections?range=[0,1]&sort=["name","ASC"]&filter={}', { token: admin });
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Range')).toBe(`projections 0-1/${all.length}`);
    const page = (await response.json()) as (ProjectionStatus & { id: string })[];
    expect(page.map((p) => p.id)).toEqual(all.slice(0, 2).map((p) => `${p.name}-${p.build}`));
    expect(page[0]).toMatchObject({ name: all[0]!.name, build: all[0]!.build, state: 'live' });
  });

  it('starts a blue-green rebuild that the forum runs and switches in, recording who asked', { timeout: 60_000 }, async () => {
    const post = await forum.api('/api/posts', { method: 'POST', token: user.token, json: { title: 'Survives the rebuild', description: 'x', tags: [] } });
    const { position } = (await post.json()) as { position: string };
    const before = (await (await forum.api('/api/posts', { headers: { [HEADER_MIN_POSITION]: position } })).json()) as PostsPage;

    const response = await forum.api('/api/admin/projections/posts/rebuild', { method: 'POST', token: admin });
    expect(response.status).toBe(202);
    const started = (await response.json()) as RebuildStarted;
    expect(started).toMatchObject({ success: true, resumed: false, projection: { name: 'posts', build: 2, requestedBy: adminId } });

    const switched = await waitFor(statusOf, (all) => all.some((s) => s.name === 'posts' && s.build === 2 && s.role === 'live'));
    expect(switched.filter((s) => s.name === 'posts')).toHaveLength(1); // the old build is gone
    expect(((await (await forum.api('/api/posts')).json()) as PostsPage).totalCount).toBe(before.totalCount);

    // the request is a staff action: in the log as soon as its position is read, the admin its actor
    const recorded = response.headers.get(HEADER_EVENT_POSITION);
    expect(recorded).toMatch(/^\d+\.\d+$/);
    const log = await forum.api('/api/admin/audit?type=ProjectionRebuildRequested', { token: admin, headers: { [HEADER_MIN_POSITION]: recorded! } });
    expect(log.status).toBe(200);
    expect(((await log.json()) as AuditPage).entries).toEqual([
      objectContaining({
        type: 'ProjectionRebuildRequested',
        actor: objectContaining({ id: adminId }),
        target: { type: 'projection', id: 'posts' },
        summary: `Started a rebuild of posts (posts v${postsProjection.version} build 2)`,
      }),
    ]);
  });

  it('refuses visitors (401), users (403), unknown projections (404) and bad names (400)', async () => {
    expect((await forum.api('/api/admin/projections')).status).toBe(401);
    expect((await forum.api('/api/admin/projections', { token: user.token })).status).toBe(403);
    expect((await forum.api('/api/admin/projections/posts/rebuild', { method: 'POST' })).status).toBe(401);
    expect((await forum.api('/api/admin/projections/posts/rebuild', { method: 'POST', token: user.token })).status).toBe(403);
    const unknown = await forum.api('/api/admin/projections/nonsense/rebuild', { method: 'POST', token: admin });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    expect((await forum.api(`/api/admin/projections/${'x'.repeat(64)}/rebuild`, { method: 'POST', token: admin })).status).toBe(400);
    expect((await statusOf()).every((s) => s.build <= 2)).toBe(true);
    // nothing refused was recorded
    const log = (await (await forum.api('/api/admin/audit?type=ProjectionRebuildRequested', { token: admin })).json()) as AuditPage;
    expect(log.entries.every((entry) => entry.actor.id === adminId && entry.target.id === 'posts')).toBe(true);
  });

  it('is ready only while every live build has its read indexes: one missing is named, and readiness comes back with it', async () => {
    expect((await forum.api('/readyz')).status).toBe(200);
    const posts = (await statusOf()).find((s) => s.name === 'posts')!;
    await forum.db.raw(`DROP INDEX "${posts.schema}".posts_newest`);
    try {
      const ready = await forum.api('/readyz');
      expect(ready.status).toBe(503);
      expect(JSON.stringify(await ready.json())).toContain('"missingIndexes":["posts_newest"]');
    } finally {
      await forum.db.raw(`CREATE INDEX IF NOT EXISTS posts_newest ON "${posts.schema}".posts (created_at DESC, id DESC)`);
    }
    await waitFor(
      async () => (await forum.api('/readyz')).status,
      (status) => status === 200,
    );
  });

  it(
    'shows a poison event: the projections that cannot read it halt with its position and error, the others go on, /readyz says so',
    { timeout: 60_000 },
    async () => {
      // an event written by a newer build of the forum than this one
      const { version } = await forum.store.readStream(userStream(user.id));
      const poison = await forum.store.append([
        {
          streamId: userStream(user.id),
          expectedVersion: version,
          events: [
            {
              type: 'ProfileUpdated',
              data: { userId: user.id, future: true },
              metadata: { actorId: user.id, correlationId: 'poison', causationId: null, requestId: null, schemaVersion: 99 },
            },
          ],
        },
      ]);
      const status = await waitFor(statusOf, (all) => all.find((s) => s.name === 'users')?.state === 'halted');
      expect(status.find((s) => s.name === 'users')).toMatchObject({
        role: 'live',
        failedPosition: positionToken(poison.lastPosition),
        error: containing('schemaVersion 99'),
      });
      // projections that do not read ProfileUpdated go on
      const tag = await forum.api('/api/admin/tags', { method: 'POST', token: admin, json: { name: 'after-poison' } });
      expect(tag.status).toBe(201);
      await waitFor(statusOf, (all) => all.find((s) => s.name === 'tags')?.lag === 0);
      const ready = await forum.api('/readyz');
      expect(ready.status).toBe(503);
      expect(JSON.stringify(await ready.json())).toContain('schemaVersion 99');
    },
  );
});
