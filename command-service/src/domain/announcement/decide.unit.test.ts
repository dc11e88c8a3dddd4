import { describe, expect, it } from 'vitest';
import { stateAfter, testCommandMeta } from '../testing.ts';
import { evolve, initialAnnouncementState } from './announcement.ts';
import { decide, type PublishAnnouncement } from './decide.ts';

const meta = testCommandMeta({ actorId: 'admin-1' });
const ID = '22222222-2222-4222-8222-222222222222';
const author = { id: 'admin-1', name: 'Forum Admin', photo: 'https://img.example/admin.png' };
const publish = (data: Partial<PublishAnnouncement['data']> = {}): PublishAnnouncement => ({
  type: 'PublishAnnouncement',
  data: { announcementId: ID, title: 'Maintenance', description: 'Tonight 22:00–23:00', author, ...data },
});
const given = stateAfter(evolve, initialAnnouncementState);

describe('given no announcement under the id', () => {
  it('when PublishAnnouncement, then AnnouncementPublished with the trimmed texts, the author and the clock', () => {
    expect(decide(publish({ title: '  Maintenance ', description: ' Tonight 22:00–23:00\n' }), initialAnnouncementState, meta)).toEqual([
      {
        type: 'AnnouncementPublished',
        data: {
          announcementId: ID,
          title: 'Maintenance',
          description: 'Tonight 22:00–23:00',
          authorId: 'admin-1',
          authorName: 'Forum Admin',
          authorPhoto: 'https://img.example/admin.png',
          publishedAt: '2026-11-21T10:00:00.000Z',
        },
      },
    ]);
  });
  it('when the author has no name, then the author is Anonymous', () => {
    expect(decide(publish({ author: { ...author, name: ' ' } }), initialAnnouncementState, meta)[0]!.data.authorName).toBe('Anonymous');
  });
  it("when the title and description are blank, then 400 with spec §5's messages", () => {
    expect(() => decide(publish({ title: ' ', description: '' }), initialAnnouncementState, meta)).toThrowError(
      expect.objectContaining({ kind: 'invalid', details: { title: ['Title is required'], description: ['Description is required'] } }),
    );
  });
});

describe('given an announcement published under the id', () => {
  const state = given(decide(publish(), initialAnnouncementState, meta));
  it('when PublishAnnouncement again, then 409', () => {
    expect(() => decide(publish(), state, meta)).toThrowError(expect.objectContaining({ kind: 'conflict' }));
  });
});
