import { COMMENT_MAX } from '@forum/contracts';
import { describe, expect, it } from 'vitest';
import { anAdmin, aPosition, anError, anId, commandApiSpec, hostileText, member, registered, visitor, type Member } from '../testing/index.ts';
import { anyArray } from '@forum/platform/testing';

/** Votes, comments and reports (community.ts); moderation and a member's notifications are in community-moderation.route.test.ts. */
const api = commandApiSpec();
const vera = member('Vera Author');
const walt = member('Walt Voter', { photo: 'https://img.example/walt.png' });
const ada = member('Ada Admin');
const NO_POST = '00000000-0000-4000-8000-000000000000';

/** A post by `author`: its id. */
async function postBy(author: Member): Promise<string> {
  const [{ id }] = await api.given(author.post('/api/posts', { title: 'A post', description: 'Some text', tags: [] }));
  return id;
}
/** A comment by `author` on `postId`: its id. */
async function commentBy(author: Member, postId: string, text = 'A comment'): Promise<string> {
  const [{ id }] = await api.given(author.post('/api/comments', { postId, text }));
  return id;
}

describe('PUT /api/posts/:id/vote', () => {
  it("sets the caller's vote: 200 {id, position, vote} and VoteCast on the voter's stream; the same vote again answers without a position and appends nothing", async () => {
    const id = await postBy(vera);
    await api.given(registered(walt));
    const vote = (v: string) => walt.put(`/api/posts/${id}/vote`, { vote: v });
    await api.when(vote('up')).then(200, { id, position: aPosition, vote: 'up' }, [
      {
        streamId: `vote-${id}-${walt.id}`,
        type: 'VoteCast',
        data: { postId: id, userId: walt.id, previous: 'none', vote: 'up' },
        metadata: { actorId: walt.id },
      },
    ]);
    await api.when(vote('up')).then(200, { id, vote: 'up' }, []);
    await api.when(vote('down')).then(200, { id, position: aPosition, vote: 'down' }, [{ type: 'VoteCast', data: { previous: 'up', vote: 'down' } }]);
    await api.when(vote('none')).then(200, { id, position: aPosition, vote: 'none' }, [{ type: 'VoteCast', data: { previous: 'down', vote: 'none' } }]);
  });

  it('answers 400 for a bad vote or post id, 401 without a token, 404 for an unknown or deleted post; appends nothing', async () => {
    const id = await postBy(vera);
    await api
      .when(vera.put(`/api/posts/${id}/vote`, { vote: 'sideways' }))
      .then(400, anError('VALIDATION_FAILED', { details: { vote: ['Vote must be up, down or none'] } }));
    await api.when(vera.put(`/api/posts/${id}/vote`, {})).then(400, anError('VALIDATION_FAILED'));
    await api.when(vera.put('/api/posts/nope/vote', { vote: 'up' })).then(400, anError('VALIDATION_FAILED'));
    await api.when(vera.put('/api/posts/%00/vote', { vote: 'up' })).then(400, anError('VALIDATION_FAILED'));
    await api.when(visitor.put(`/api/posts/${id}/vote`, { vote: 'up' })).then(401, anError('UNAUTHENTICATED'));
    await api.when(walt.put(`/api/posts/${NO_POST}/vote`, { vote: 'up' })).then(404, anError('NOT_FOUND'));
    await api.given(vera.delete(`/api/my-posts/${id}`));
    await api.when(walt.put(`/api/posts/${id}/vote`, { vote: 'up' })).then(404, anError('NOT_FOUND'));
  });

  it("#28.2 refuses a vote on one's own post with 422 OWN_POST_VOTE, appending nothing", async () => {
    const id = await postBy(vera);
    for (const vote of ['up', 'down']) {
      await api.when(vera.put(`/api/posts/${id}/vote`, { vote })).then(422, { error: { code: 'OWN_POST_VOTE', message: 'You cannot vote on your own post.' } });
    }
  });
});

describe('PATCH /api/posts/:id/vote (the spec’s call)', () => {
  it('accepts the legal transitions of spec §4 and answers 409 ILLEGAL_VOTE_TRANSITION with the current vote otherwise, appending nothing', async () => {
    const id = await postBy(vera);
    await api.given(registered(walt));
    const change = (likeChange: number, dislikeChange: number) => walt.patch(`/api/posts/${id}/vote`, { likeChange, dislikeChange });
    await api.when(change(1, 0)).then(200, { id, position: aPosition, vote: 'up' }, [{ type: 'VoteCast', data: { previous: 'none', vote: 'up' } }]); // like
    await api.when(change(-1, 0)).then(200, { id, position: aPosition, vote: 'none' }, [{ type: 'VoteCast', data: { previous: 'up', vote: 'none' } }]); // like again: undo
    await api.when(change(0, 1)).then(200, { id, position: aPosition, vote: 'down' }); // dislike
    await api.when(change(1, -1)).then(200, { id, position: aPosition, vote: 'up' }); // like when disliked
    await api.when(change(1, 0)).then(409, anError('ILLEGAL_VOTE_TRANSITION', { details: { current: 'up' } }));
    await api.when(change(0, 0)).then(409, anError('ILLEGAL_VOTE_TRANSITION'));
  });

  it("answers 400 for changes outside -1..1, 401 without a token, 404 for an unknown post, 422 on one's own post; appends nothing", async () => {
    const own = await postBy(walt);
    await api
      .when(walt.patch(`/api/posts/${NO_POST}/vote`, { likeChange: 2, dislikeChange: 0 }))
      .then(400, anError('VALIDATION_FAILED', { details: { likeChange: ['Must be -1, 0 or 1'] } }));
    await api.when(walt.patch(`/api/posts/${NO_POST}/vote`, { likeChange: 1 })).then(400, anError('VALIDATION_FAILED'));
    await api.when(visitor.patch(`/api/posts/${NO_POST}/vote`, { likeChange: 1, dislikeChange: 0 })).then(401, anError('UNAUTHENTICATED'));
    await api.when(walt.patch(`/api/posts/${NO_POST}/vote`, { likeChange: 1, dislikeChange: 0 })).then(404, anError('NOT_FOUND'));
    for (const [likeChange, dislikeChange] of [
      [1, 0],
      [0, 1],
    ]) {
      await api
        .when(walt.patch(`/api/posts/${own}/vote`, { likeChange, dislikeChange }))
        .then(422, anError('OWN_POST_VOTE', { message: 'You cannot vote on your own post.' }));
    }
  });
});

describe('POST /api/comments', () => {
  it("adds a trimmed comment with its author from the token: 201 {id, position}, CommentAdded on the comment's stream", async () => {
    const postId = await postBy(vera);
    await api.given(registered(walt));
    const { body } = await api.when(walt.post('/api/comments', { postId, text: '  First!  ' })).then(201, { id: anId, position: aPosition }, [
      {
        type: 'CommentAdded',
        data: { postId, text: 'First!', authorId: walt.id, authorName: 'Walt Voter', authorEmail: walt.email, authorPhoto: walt.photo },
        metadata: { actorId: walt.id },
      },
    ]);
    const { id } = body as { id: string };
    expect((await api.log()).at(-1)).toMatchObject({ streamId: `comment-${id}`, data: { commentId: id } });
  });

  it('refuses an empty or too long text and a bad post id with 400, a visitor with 401, an unknown or deleted post with 404; appends nothing', async () => {
    const postId = await postBy(vera);
    await api
      .when(vera.post('/api/comments', { postId, text: '   ' }))
      .then(400, anError('VALIDATION_FAILED', { details: { text: ['Comment must not be empty'] } }));
    const tooLong = await api.when(vera.post('/api/comments', { postId, text: 'x'.repeat(COMMENT_MAX + 1) })).then(400);
    expect(tooLong.body).toMatchObject({ error: { details: { text: anyArray } } });
    const noText = await api.when(vera.post('/api/comments', { postId })).then(400);
    expect(noText.body).toMatchObject({ error: { details: { text: anyArray } } });
    await api
      .when(vera.post('/api/comments', { postId: 'nope', text: 'Hi' }))
      .then(400, anError('VALIDATION_FAILED', { details: { postId: ['Not a post id'] } }));
    await api.when(visitor.post('/api/comments', { postId, text: 'Hi' })).then(401, anError('UNAUTHENTICATED'));
    await api.when(vera.post('/api/comments', { postId: NO_POST, text: 'Hi' })).then(404, anError('NOT_FOUND'));
    await api.when(vera.post('/api/comments', { postId, text: 'x'.repeat(COMMENT_MAX) })).then(201);
    await api.given(vera.delete(`/api/my-posts/${postId}`));
    await api.when(vera.post('/api/comments', { postId, text: 'Too late' })).then(404, anError('NOT_FOUND'));
  });
});

describe('POST /api/comments: hostile text', () => {
  it.each(hostileText('body'))('refuses %s in the text with 400 on text, appending nothing', async (_what, text) => {
    const postId = await postBy(vera);
    await api.when(vera.post('/api/comments', { postId, text })).then(400, anError('VALIDATION_FAILED', { details: { text: anyArray } }));
  });
});

describe('POST /api/comments/:commentId/report', () => {
  it('records the report with the reporter from the token: 201 {id: the comment, position}, CommentReported on the (comment, reporter) stream', async () => {
    const postId = await postBy(vera);
    const commentId = await commentBy(vera, postId, 'You are all wrong');
    await api.given(registered(walt));
    await api.when(walt.post(`/api/comments/${commentId}/report`, { feedback: 'offensive' })).then(201, { id: commentId, position: aPosition }, [
      {
        streamId: `report-${commentId}-${walt.id}`,
        type: 'CommentReported',
        data: { commentId, postId, reporterId: walt.id, reporterName: 'Walt Voter', reporterEmail: walt.email, feedback: 'offensive' },
        metadata: { actorId: walt.id },
      },
    ]);
  });

  it('a second report of one comment by one user answers 409 ALREADY_REPORTED, also with ten at once: one report', async () => {
    const postId = await postBy(vera);
    const commentId = await commentBy(vera, postId, 'Hmm');
    await api.given(registered(walt));
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, (_, i) => api.when(walt.post(`/api/comments/${commentId}/report`, { feedback: i % 2 ? 'spam' : 'inappropriate' })).outcome),
    );
    expect(outcomes.map((o) => o.status).sort()).toEqual([201, ...Array<number>(9).fill(409)]);
    expect(outcomes.find((o) => o.status === 409)!.body).toEqual(anError('ALREADY_REPORTED'));
    expect((await api.log()).filter((e) => e.type === 'CommentReported')).toHaveLength(1);
    await api.when(walt.post(`/api/comments/${commentId}/report`, { feedback: 'spam' })).then(409, anError('ALREADY_REPORTED'));
  });

  it("answers 400 for a bad feedback or id, 401 without a token, 404 for an unknown comment or one whose post is deleted, 422 for one's own comment; appends nothing", async () => {
    const postId = await postBy(vera);
    const commentId = await commentBy(walt, postId, 'Hi');
    const report = (who: Member, id: string, body: unknown) => who.post(`/api/comments/${id}/report`, body);
    const feedback = await api.when(report(vera, commentId, { feedback: 'boring' })).then(400);
    expect(feedback.body).toMatchObject({ error: { code: 'VALIDATION_FAILED', details: { feedback: anyArray } } });
    await api.when(report(vera, commentId, {})).then(400, anError('VALIDATION_FAILED'));
    await api.when(report(vera, 'nope', { feedback: 'spam' })).then(400, anError('VALIDATION_FAILED'));
    await api.when(report(vera, '%00', { feedback: 'spam' })).then(400, anError('VALIDATION_FAILED'));
    await api.when(visitor.post(`/api/comments/${commentId}/report`, { feedback: 'spam' })).then(401, anError('UNAUTHENTICATED'));
    await api.when(report(vera, NO_POST, { feedback: 'spam' })).then(404, anError('NOT_FOUND'));
    await api
      .when(report(walt, commentId, { feedback: 'spam' }))
      .then(422, { error: { code: 'OWN_COMMENT_REPORT', message: 'You cannot report your own comment.' } });
    await api.given(vera.delete(`/api/my-posts/${postId}`));
    await api.when(report(vera, commentId, { feedback: 'spam' })).then(404, anError('NOT_FOUND'));
  });

  it('answers 404 for a comment an admin removed', async () => {
    await api.given(anAdmin(ada));
    const postId = await postBy(vera);
    const commentId = await commentBy(walt, postId);
    await api.given(ada.delete(`/api/admin/comments/${commentId}`));
    await api.when(vera.post(`/api/comments/${commentId}/report`, { feedback: 'spam' })).then(404, anError('NOT_FOUND'));
  });
});
