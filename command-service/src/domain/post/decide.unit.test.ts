import type { Role } from '@forum/contracts';
import { uuidOf } from '@forum/platform/testing';
import { describe, expect, it } from 'vitest';
import { evolve as evolveTags, initialTagsState } from '../tag/tag.ts';
import { testCommandMeta } from '../testing.ts';
import { decide, type CreatePost, type DeletePost } from './decide.ts';
import { evolve, initialPostState } from './post.ts';

const meta = testCommandMeta({ actorId: 'u-alice', requestId: 'r' });
const tags = [
  { type: 'TagCreated' as const, data: { tagId: uuidOf(1), name: 'React', createdAt: meta.now.toISOString() } },
  { type: 'TagCreated' as const, data: { tagId: uuidOf(2), name: 'Node.js', createdAt: meta.now.toISOString() } },
].reduce(evolveTags, initialTagsState);

const deletePost = (actorId: string, actorIsAdmin: boolean, authorRole: Role = 'user', actorRole?: Role): DeletePost => ({
  type: 'DeletePost',
  data: { postId: '11111111-1111-4111-8111-111111111111', actor: { id: actorId, role: actorRole ?? (actorIsAdmin ? 'admin' : 'user') }, authorRole },
});

const createPost = (overrides: Partial<CreatePost['data']> = {}): CreatePost => ({
  type: 'CreatePost',
  data: {
    postId: '11111111-1111-4111-8111-111111111111',
    title: 'Hello',
    description: 'World',
    tags: ['react'],
    author: { id: 'u-alice', name: 'Alice', email: 'alice@forum.local', photo: 'https://img/alice.png' },
    knownTags: tags,
    ...overrides,
  },
});

describe('given no post', () => {
  it('when CreatePost, then PostCreated with the author, the clock and the canonical tag names', () => {
    expect(decide(createPost({ tags: ['react', 'NODE.JS', 'React'] }), initialPostState, meta)).toEqual([
      {
        type: 'PostCreated',
        data: {
          postId: '11111111-1111-4111-8111-111111111111',
          title: 'Hello',
          description: 'World',
          tags: ['React', 'Node.js'],
          authorId: 'u-alice',
          authorName: 'Alice',
          authorEmail: 'alice@forum.local',
          authorPhoto: 'https://img/alice.png',
          createdAt: '2026-11-21T10:00:00.000Z',
        },
      },
    ]);
  });

  it("when the author has no display name, then the post is by 'Anonymous'", () => {
    const [event] = decide(createPost({ author: { id: 'u', name: '  ', email: 'x@y.z', photo: '' } }), initialPostState, meta);
    expect(event).toMatchObject({ type: 'PostCreated', data: { authorName: 'Anonymous' } });
  });

  it('when a tag does not exist, then a validation error names it', () => {
    expect(() => decide(createPost({ tags: ['react', 'cobol'] }), initialPostState, meta)).toThrowError(
      expect.objectContaining({ code: 'VALIDATION_FAILED', details: { tags: ['Unknown tag "cobol"'] } }),
    );
  });
});

describe('given a created post', () => {
  const created = decide(createPost(), initialPostState, meta).reduce(evolve, initialPostState);
  it('when CreatePost with the same id, then a conflict', () => {
    expect(() => decide(createPost(), created, meta)).toThrowError(expect.objectContaining({ kind: 'conflict' }));
  });
  it('when its author deletes it, then PostDeleted', () => {
    expect(decide(deletePost('u-alice', false), created, meta)).toEqual([
      {
        type: 'PostDeleted',
        data: { postId: '11111111-1111-4111-8111-111111111111', authorId: 'u-alice', deletedBy: 'u-alice', deletedAt: '2026-11-21T10:00:00.000Z' },
      },
    ]);
  });
  it('when an admin deletes it, then PostDeleted by the admin', () => {
    expect(decide(deletePost('u-admin', true), created, meta)).toMatchObject([{ type: 'PostDeleted', data: { authorId: 'u-alice', deletedBy: 'u-admin' } }]);
  });
  it('when another user deletes it, then 403 FORBIDDEN', () => {
    expect(() => decide(deletePost('u-bob', false), created, meta)).toThrowError(expect.objectContaining({ kind: 'forbidden', code: 'FORBIDDEN' }));
  });
  it("#43.1 when a moderator deletes a member's post, then PostDeleted by the moderator", () => {
    expect(decide(deletePost('u-mod', false, 'user', 'moderator'), created, meta)).toMatchObject([{ type: 'PostDeleted', data: { deletedBy: 'u-mod' } }]);
  });
  it.each<Role>(['moderator', 'admin'])("#43.1 when a moderator deletes a %s's post, then 403 STAFF_PROTECTED; an admin may", (authorRole) => {
    expect(() => decide(deletePost('u-mod', false, authorRole, 'moderator'), created, meta)).toThrowError(
      expect.objectContaining({ kind: 'forbidden', code: 'STAFF_PROTECTED' }),
    );
    expect(decide(deletePost('u-admin', true, authorRole), created, meta)).toMatchObject([{ type: 'PostDeleted', data: { deletedBy: 'u-admin' } }]);
  });
});

describe('given a deleted post', () => {
  const deleted = [
    ...decide(createPost(), initialPostState, meta),
    ...decide(deletePost('u-alice', false), decide(createPost(), initialPostState, meta).reduce(evolve, initialPostState), meta),
  ].reduce(evolve, initialPostState);
  it('when DeletePost again, then 404 NOT_FOUND', () => {
    expect(() => decide(deletePost('u-alice', false), deleted, meta)).toThrowError(expect.objectContaining({ kind: 'not-found' }));
  });
});

describe('given no post', () => {
  it('when DeletePost, then 404 NOT_FOUND', () => {
    expect(() => decide(deletePost('u-alice', true), initialPostState, meta)).toThrowError(expect.objectContaining({ kind: 'not-found' }));
  });
});
