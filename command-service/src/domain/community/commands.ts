import type { ReportFeedback, Vote } from '@forum/contracts';
import type { EventStore, StreamAppend } from '@forum/eventstore';
import { announcementStream, evolve as evolveAnnouncement, initialAnnouncementState } from '../announcement/announcement.ts';
import { acceptedAs, appendTo, authorOf, registered, type Accepted, type Actors, type Identity } from '../actor.ts';
import type { CommandMeta } from '../command.ts';
import { decide as decideComment } from '../comment/decide.ts';
import { commentStream, evolve as evolveComment, initialCommentState, type CommentState } from '../comment/comment.ts';
import { execute, load, loadAssumingNew, positionOf, type Executed, type Idempotency } from '../handle.ts';
import type { Costs } from '../limits.ts';
import { decide as decideNotification } from '../notification/decide.ts';
import { evolve as evolveNotifications, initialNotificationsState, notificationsStream } from '../notification/notification.ts';
import { evolve as evolvePost, initialPostState, postStream } from '../post/post.ts';
import { decide as decideReport } from '../report/decide.ts';
import { commentReportStream, evolve as evolveReport, initialReportState } from '../report/report.ts';
import { evolve as evolveUser, initialUserState, userStream } from '../user/user.ts';
import { decide as decideVote, type VoteCommand } from '../vote/decide.ts';
import { evolve as evolveVote, initialVoteState, voteStream } from '../vote/vote.ts';

export interface VoteAnswer extends Accepted {
  readonly vote: Vote;
}


/**
 * The community's commands: votes, comments, reports, moderation, warnings and a member's reading
 * of their notifications.
 * Each rule that must hold under concurrent requests is decided on one small
 * stream (a voter's vote on a post, a comment, one user's report of a comment,
 * a user's notifications), so unrelated users never contend.
 */
export function createCommunityCommands(store: EventStore, actors: Actors, cost: Costs) {
  const loadPost = (postId: string) => load(store, postStream(postId), evolvePost, initialPostState);
  const loadComment = (commentId: string) => load(store, commentStream(commentId), evolveComment, initialCommentState);

  /** Loads the caller and the post, decides on the caller's vote stream. */
  function vote(who: Identity, postId: string, command: (post: Awaited<ReturnType<typeof loadPost>>['state']) => VoteCommand, meta: CommandMeta, idempotency?: Idempotency) {
    return execute<VoteAnswer>(
      store,
      async () => {
        const streamId = voteStream(postId, who.userId);
        const [actor, post, current] = await Promise.all([actors.load(who, meta), loadPost(postId), load(store, streamId, evolveVote, initialVoteState)]);
        const events = decideVote(command(post.state), current.state, meta);
        const after = events.reduce(evolveVote, current.state);
        return {
          appends: [...actors.append(who, actor, [], meta), ...appendTo(streamId, current, events, meta)],
          answer: (result) => ({ id: postId, ...(result && { position: positionOf(result) }), vote: after.current }),
        };
      },
      idempotency,
      cost('vote', who.userId),
    );
  }

  return {
    /** PUT /api/posts/:id/vote. */
    setVote(who: Identity, input: { postId: string; vote: Vote }, meta: CommandMeta, idempotency?: Idempotency): Promise<Executed<VoteAnswer>> {
      return vote(who, input.postId, (post) => ({ type: 'SetVote', data: { postId: input.postId, userId: who.userId, vote: input.vote, post } }), meta, idempotency);
    },

    /** PATCH /api/posts/:id/vote (the spec's call). */
    changeVote(
      who: Identity,
      input: { postId: string; likeChange: -1 | 0 | 1; dislikeChange: -1 | 0 | 1 },
      meta: CommandMeta,
      idempotency?: Idempotency,
    ): Promise<Executed<VoteAnswer>> {
      const { postId, likeChange, dislikeChange } = input;
      return vote(who, postId, (post) => ({ type: 'ChangeVote', data: { postId, userId: who.userId, likeChange, dislikeChange, post } }), meta, idempotency);
    },

    /** POST /api/comments. */
    addComment(who: Identity, input: { commentId: string; postId: string; text: string }, meta: CommandMeta, idempotency?: Idempotency): Promise<Executed<Accepted>> {
      return execute(
        store,
        async (attempt) => {
          // the comment's id is this request's own: nothing to read (see loadAssumingNew)
          const [actor, post, comment] = await Promise.all([
            actors.load(who, meta),
            loadPost(input.postId),
            loadAssumingNew(attempt, store, commentStream(input.commentId), evolveComment, initialCommentState),
          ]);
          const events = decideComment({ type: 'AddComment', data: { ...input, author: authorOf(registered(actor.state)), post: post.state } }, comment.state, meta);
          return {
            appends: [
              ...actors.append(who, actor, [], meta),
              ...appendTo(commentStream(input.commentId), comment, events, meta),
            ],
            answer: acceptedAs(input.commentId),
          };
        },
        idempotency,
        cost('comment', who.userId),
      );
    },

    /** POST /api/comments/:commentId/report. */
    reportComment(who: Identity, input: { commentId: string; feedback: ReportFeedback }, meta: CommandMeta, idempotency?: Idempotency): Promise<Executed<Accepted>> {
      return execute(
        store,
        async () => {
          const streamId = commentReportStream(input.commentId, who.userId);
          const [actor, comment, report] = await Promise.all([actors.load(who, meta), loadComment(input.commentId), load(store, streamId, evolveReport, initialReportState)]);
          const post = comment.state.status === 'none' ? { state: initialPostState } : await loadPost(comment.state.postId);
          const events = decideReport(
            { type: 'ReportComment', data: { ...input, reporter: authorOf(registered(actor.state)), comment: comment.state, post: post.state } },
            report.state,
            meta,
          );
          return {
            appends: [...actors.append(who, actor, [], meta), ...appendTo(streamId, report, events, meta)],
            answer: acceptedAs(input.commentId),
          };
        },
        idempotency,
        cost('report', who.userId),
      );
    },

    /** DELETE /api/admin/comments/:commentId (admin). */
    removeComment(who: Identity, commentId: string, meta: CommandMeta, idempotency?: Idempotency): Promise<Executed<Accepted>> {
      return execute(
        store,
        async () => {
          const [actor, comment] = await Promise.all([actors.load(who, meta), loadComment(commentId)]);
          const events = decideComment(
            { type: 'RemoveComment', data: { commentId, actorId: who.userId, actorIsAdmin: registered(actor.state).role === 'admin' } },
            comment.state,
            meta,
          );
          return {
            appends: [...actors.append(who, actor, [], meta), ...appendTo(commentStream(commentId), comment, events, meta)],
            answer: acceptedAs(commentId),
          };
        },
        idempotency,
      );
    },

    /**
     * POST /api/admin/warn-user/:authorEmail (admin). `targetUserId` is whom the
     * email names (null when nobody): the admin check comes first, so a
     * non-admin learns nothing about which emails exist.
     */
    warnUser(
      who: Identity,
      input: { warningId: string; targetUserId: string | null; reason?: string; commentId?: string },
      meta: CommandMeta,
      idempotency?: Idempotency,
    ): Promise<Executed<Accepted>> {
      return execute(
        store,
        async () => {
          const { warningId, targetUserId, reason, commentId } = input;
          const [actor, target, comment] = await Promise.all([
            actors.load(who, meta),
            targetUserId === null ? { state: initialUserState } : load(store, userStream(targetUserId), evolveUser, initialUserState),
            commentId === undefined ? undefined : loadComment(commentId),
          ]);
          const notifications = targetUserId === null ? { state: initialNotificationsState, version: 0 } : await load(store, notificationsStream(targetUserId), evolveNotifications, initialNotificationsState);
          const events = decideNotification(
            {
              type: 'WarnUser',
              data: {
                warningId,
                ...(reason !== undefined && { reason }),
                ...(commentId !== undefined && { commentId }),
                actorId: who.userId,
                actorIsAdmin: registered(actor.state).role === 'admin',
                target: target.state,
                ...(comment && { comment: comment.state as CommentState }),
              },
            },
            notifications.state,
            meta,
          );
          const appends: StreamAppend[] = [...actors.append(who, actor, [], meta)];
          appends.push(...appendTo(notificationsStream(targetUserId!), notifications, events, meta));
          return { appends, answer: acceptedAs(warningId) };
        },
        idempotency,
      );
    },

    /** POST /api/me/notifications/read: the caller's own warnings. */
    markNotificationsRead(who: Identity, input: { ids?: readonly string[]; upTo?: string }, meta: CommandMeta, idempotency?: Idempotency): Promise<Executed<Accepted>> {
      return execute(
        store,
        async () => {
          const streamId = notificationsStream(who.userId);
          const [actor, notifications] = await Promise.all([actors.load(who, meta), load(store, streamId, evolveNotifications, initialNotificationsState)]);
          const events = decideNotification({ type: 'MarkWarningsRead', data: { userId: who.userId, ...input } }, notifications.state, meta);
          return {
            appends: [...actors.append(who, actor, [], meta), ...appendTo(streamId, notifications, events, meta)],
            answer: acceptedAs(who.userId),
          };
        },
        idempotency,
      );
    },

    /**
     * POST /api/me/announcements/read: the caller's own mark, on their notifications stream. Two
     * devices marking at once both decide on the version they read; the second append conflicts,
     * reads the first's mark and decides again (nothing, when the first was as new).
     */
    markAnnouncementsRead(who: Identity, input: { announcementId: string }, meta: CommandMeta, idempotency?: Idempotency): Promise<Executed<Accepted>> {
      return execute(
        store,
        async () => {
          const streamId = notificationsStream(who.userId);
          const [actor, notifications, announcement] = await Promise.all([
            actors.load(who, meta),
            load(store, streamId, evolveNotifications, initialNotificationsState),
            load(store, announcementStream(input.announcementId), evolveAnnouncement, initialAnnouncementState),
          ]);
          const events = decideNotification({ type: 'MarkAnnouncementsRead', data: { userId: who.userId, announcement: announcement.state } }, notifications.state, meta);
          return {
            appends: [...actors.append(who, actor, [], meta), ...appendTo(streamId, notifications, events, meta)],
            answer: acceptedAs(who.userId),
          };
        },
        idempotency,
      );
    },
  };
}

export type CommunityCommands = ReturnType<typeof createCommunityCommands>;
