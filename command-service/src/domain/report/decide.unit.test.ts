import { describe, expect, it } from 'vitest';
import type { CommentState } from '../comment/comment.ts';
import type { PostState } from '../post/post.ts';
import { testCommandMeta, addedComment, livePost } from '../testing.ts';
import { decide, decidePostReport, type ReportComment, type ReportPost } from './decide.ts';
import { evolve, evolvePostReport, initialReportState } from './report.ts';

const meta = testCommandMeta({ actorId: 'u-carl', requestId: 'r' });
const commentId = '22222222-2222-4222-8222-222222222222';
const postId = '11111111-1111-4111-8111-111111111111';
const comment: CommentState = addedComment(postId, 'u-bob', 'Hmm');
const live: PostState = livePost('u-alice');
const carl = { id: 'u-carl', name: 'Carl', email: 'carl@forum.local', photo: '' };
const report = (overrides: Partial<ReportComment['data']> = {}): ReportComment => ({
  type: 'ReportComment',
  data: { commentId, reporter: carl, reporterIsStaff: false, feedback: 'spam', comment, post: live, ...overrides },
});

describe('given no report of this comment by this user', () => {
  it('when ReportComment, then CommentReported with the reporter from their record and the clock', () => {
    expect(decide(report(), initialReportState, meta)).toEqual([
      {
        type: 'CommentReported',
        data: {
          commentId,
          postId,
          reporterId: 'u-carl',
          reporterName: 'Carl',
          reporterEmail: 'carl@forum.local',
          reporterPhoto: '',
          feedback: 'spam',
          reportedAt: meta.now.toISOString(),
        },
      },
    ]);
  });
  it.each([
    ['an unknown comment', { comment: { status: 'none' } as CommentState }],
    ['a removed comment', { comment: { ...comment, status: 'removed' } as CommentState }],
    ['a comment of a deleted post', { post: { status: 'deleted', authorId: 'u-alice' } as PostState }],
  ])('when reporting %s, then 404', (_, overrides) => {
    expect(() => decide(report(overrides), initialReportState, meta)).toThrowError(expect.objectContaining({ kind: 'not-found' }));
  });
});

describe("given the reporter's own comment (#28.2)", () => {
  it('when ReportComment, then 422 OWN_COMMENT_REPORT', () => {
    expect(() => decide(report({ comment: addedComment(postId, 'u-carl', 'Mine') }), initialReportState, meta)).toThrowError(
      expect.objectContaining({ kind: 'rule', code: 'OWN_COMMENT_REPORT' }),
    );
  });
});

describe('given the user reported this comment already', () => {
  const state = decide(report(), initialReportState, meta).reduce(evolve, initialReportState);
  it('when ReportComment again (any feedback), then 409 ALREADY_REPORTED', () => {
    expect(() => decide(report({ feedback: 'offensive' }), state, meta)).toThrowError(expect.objectContaining({ kind: 'conflict', code: 'ALREADY_REPORTED' }));
  });
  it('when the comment was removed meanwhile, then 404 (the report is resolved, there is nothing to report)', () => {
    expect(() => decide(report({ comment: { ...addedComment(postId, 'u-bob', 'Hmm'), status: 'removed' } }), state, meta)).toThrowError(
      expect.objectContaining({ kind: 'not-found' }),
    );
  });
});

describe('#43.2 reports of posts', () => {
  const reportPost = (overrides: Partial<ReportPost['data']> = {}): ReportPost => ({
    type: 'ReportPost',
    data: { postId, reporter: carl, reporterIsStaff: false, feedback: 'offensive', post: live, ...overrides },
  });
  it('given none by this member, when ReportPost, then PostReported with the reporter from their record and the clock', () => {
    expect(decidePostReport(reportPost(), initialReportState, meta)).toEqual([
      {
        type: 'PostReported',
        data: {
          postId,
          reporterId: 'u-carl',
          reporterName: 'Carl',
          reporterEmail: 'carl@forum.local',
          reporterPhoto: '',
          feedback: 'offensive',
          reportedAt: meta.now.toISOString(),
        },
      },
    ]);
  });
  it('given one by this member, when ReportPost again, then 409 ALREADY_REPORTED', () => {
    const state = decidePostReport(reportPost(), initialReportState, meta).reduce(evolvePostReport, initialReportState);
    expect(() => decidePostReport(reportPost({ feedback: 'spam' }), state, meta)).toThrowError(
      expect.objectContaining({ kind: 'conflict', code: 'ALREADY_REPORTED', message: 'You have already reported this post' }),
    );
  });
  it("when the reporter's own post, then 422 OWN_POST_REPORT", () => {
    expect(() => decidePostReport(reportPost({ post: livePost('u-carl') }), initialReportState, meta)).toThrowError(
      expect.objectContaining({ kind: 'rule', code: 'OWN_POST_REPORT', message: 'You cannot report your own post.' }),
    );
  });
  it.each<[string, Partial<ReportPost['data']>]>([
    ['an unknown post', { post: { status: 'none' } }],
    ['a deleted post', { post: { status: 'deleted', authorId: 'u-alice' } }],
    ['a hidden post, by a member', { post: livePost('u-alice', { hidden: { reason: 'Spam' } }) }],
  ])('when reporting %s, then 404', (_, overrides) => {
    expect(() => decidePostReport(reportPost(overrides), initialReportState, meta)).toThrowError(expect.objectContaining({ kind: 'not-found' }));
  });
  it('a hidden post is reportable by staff, who see it', () => {
    expect(
      decidePostReport(reportPost({ post: livePost('u-alice', { hidden: { reason: 'Spam' } }), reporterIsStaff: true }), initialReportState, meta),
    ).toHaveLength(1);
  });
  it('#43.3 a hidden comment, or a comment of a hidden post, is 404 to a reporting member, reportable by staff', () => {
    const hiddenComment = { ...comment, hidden: { reason: 'Rude' } } as CommentState;
    const hiddenPost = livePost('u-alice', { hidden: { reason: 'Spam' } });
    for (const overrides of [{ comment: hiddenComment }, { post: hiddenPost }]) {
      expect(() => decide(report(overrides), initialReportState, meta)).toThrowError(expect.objectContaining({ kind: 'not-found' }));
      expect(decide(report({ ...overrides, reporterIsStaff: true }), initialReportState, meta)).toHaveLength(1);
    }
  });
});
