import type { AnnouncementPublished } from '@forum/contracts';
import { isoNow as at, uuidOf } from '@forum/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectionHarness } from '../testing/given.ts';
import { announcementsProjection } from './projection.ts';
import { contactProjection } from '../contact/projection.ts';

let harness: Awaited<ReturnType<typeof projectionHarness>>;
beforeAll(async () => {
  harness = await projectionHarness('announcements_projection');
});
afterAll(() => harness?.stop());

const published = (n: number, authorName = 'Admin') =>
  harness.event<AnnouncementPublished['data']>('AnnouncementPublished', {
    announcementId: uuidOf(n),
    title: `Title ${n}`,
    description: 'Text',
    authorId: 'u-admin',
    authorName,
    authorPhoto: 'a.png',
    publishedAt: at(),
  });
const renamed = (changes: { name?: string; photoURL?: string }) => harness.event('ProfileUpdated', { userId: 'u-admin', changes, updatedAt: at() });

describe('given announcements before the batch and in it', () => {
  it('when their author renames in the batch, then each shows the name and photo the log gives it, and the total counts each once', async () => {
    const model = await harness.fresh(announcementsProjection);
    await model.given([published(1)]);
    await model.given([published(2), renamed({ name: 'Boss' }), published(3, 'Boss'), renamed({ photoURL: 'b.png' }), published(4, 'Boss'), published(2)]);
    expect(await model.rows('SELECT id, author_name, author_photo FROM announcements ORDER BY id')).toEqual([
      { id: uuidOf(1), author_name: 'Boss', author_photo: 'b.png' },
      { id: uuidOf(2), author_name: 'Boss', author_photo: 'b.png' },
      { id: uuidOf(3), author_name: 'Boss', author_photo: 'b.png' },
      { id: uuidOf(4), author_name: 'Boss', author_photo: 'a.png' },
    ]);
    expect(await model.rows("SELECT value::int FROM counters WHERE name = 'announcements'")).toEqual([{ value: 4 }]);
  });
});

describe('given contact messages in one batch, one of them twice', () => {
  it('then each is listed and counted once', async () => {
    const model = await harness.fresh(contactProjection);
    const message = (n: number) =>
      harness.event('ContactMessageReceived', { messageId: uuidOf(n), name: 'V', email: 'v@x.test', message: `m${n}`, receivedAt: at() });
    await model.given([message(1), message(2), message(1)]);
    expect(await model.rows('SELECT id FROM messages ORDER BY id')).toEqual([{ id: uuidOf(1) }, { id: uuidOf(2) }]);
    expect(await model.rows("SELECT value::int FROM counters WHERE name = 'messages'")).toEqual([{ value: 2 }]);
  });
});
