import { HEADER_MIN_POSITION } from '@forum/contracts';
import { createKnex, type Knex } from '@forum/platform';
import { version } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../testing/forum.ts';
import { expectStatus } from '../testing/expect-status.ts';

/**
 * What the server names (command-service/src/ids.ts) it names with a UUIDv7: the time in its
 * first 48 bits, so ids made later sort later and new rows land at the right edge of the
 * indexes that hold them instead of on a random page.
 */
let forum: TestForum;
let db: Knex;

const msOf = (id: string) => parseInt(id.replace(/-/g, '').slice(0, 12), 16);

beforeAll(async () => {
  forum = await startTestForum();
  db = createKnex(forum.databaseUrl, { max: 2 });
}, 60_000);
afterAll(async () => {
  await db?.destroy();
  await forum?.stop();
});

describe('ids the server names', () => {
  it('are UUIDv7 of the time the command was decided, and sort in the order they were made', async () => {
    const admin = await forum.demoAdmin();
    const member = await forum.newUser('Id Maker');
    const before = Date.now();
    await expectStatus(forum.api('/api/admin/tags', { method: 'POST', token: admin.token, json: { name: 'Ids' } }), 201);
    let position = '';
    for (let i = 0; i < 3; i++) {
      const { id } = await expectStatus<{ id: string }>(
        forum.api('/api/posts', { method: 'POST', token: member.token, json: { title: `Post ${i}`, description: 'Named by the server', tags: ['Ids'] } }),
        201,
      );
      ({ position } = await expectStatus<{ position: string }>(
        forum.api('/api/comments', { method: 'POST', token: member.token, json: { postId: id, text: `Comment ${i}` } }),
        201,
      ));
    }
    // warning by email finds the member in the read models: once they hold the member's writes
    await expectStatus(forum.api('/api/me', { token: member.token, headers: { [HEADER_MIN_POSITION]: position } }));
    await expectStatus(forum.api(`/api/admin/warn-user/${member.email}`, { method: 'POST', token: admin.token, json: { reason: 'Be kind' } }), 201);
    await expectStatus(forum.api('/api/admin/announcements', { method: 'POST', token: admin.token, json: { title: 'Ids', description: 'Time-ordered' } }), 201);
    await expectStatus(forum.api('/api/contact', { method: 'POST', json: { name: 'Ann', email: 'ann@forum.test', message: 'Hello' } }), 201);
    await expectStatus(forum.api(`/api/users/membership/${member.email}`, { method: 'PATCH', token: member.token }));
    const after = Date.now();

    const { rows } = await db.raw<{ rows: { type: string; id: string; recorded_at: Date }[] }>(
      `SELECT type, coalesce(data->>'tagId', data->>'postId', data->>'commentId', data->>'warningId', data->>'announcementId', data->>'messageId', data->>'attemptId') AS id, recorded_at
       FROM eventstore.events
       WHERE type IN ('TagCreated', 'PostCreated', 'CommentAdded', 'UserWarned', 'AnnouncementPublished', 'ContactMessageReceived', 'MembershipPurchaseStarted')
         AND recorded_at >= ?
       ORDER BY global_position`,
      [new Date(before - 1)],
    );
    expect(rows.map((r) => r.type)).toEqual([
      'TagCreated',
      ...Array.from({ length: 3 }, () => ['PostCreated', 'CommentAdded']).flat(),
      'UserWarned',
      'AnnouncementPublished',
      'ContactMessageReceived',
      'MembershipPurchaseStarted',
    ]);
    for (const row of rows) {
      expect(version(row.id), row.type).toBe(7);
      expect(msOf(row.id), row.type).toBeGreaterThanOrEqual(before);
      expect(msOf(row.id), row.type).toBeLessThanOrEqual(after);
    }
    const ids = rows.map((r) => r.id);
    expect([...ids].sort()).toEqual(ids);
  });
});
