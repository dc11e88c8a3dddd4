import { isDeepStrictEqual } from 'node:util';
import {
  authorOf,
  decideAnnouncement,
  decideComment,
  decideCommentModeration,
  decideContact,
  decideMemberModeration,
  decidePins,
  decidePostModeration,
  decidePostReport,
  decideFollow,
  decideHandle,
  decideNotification,
  decidePreferences,
  decidePost,
  decideReport,
  decideTag,
  decideUser,
  decideVote,
  evolveAnnouncement,
  evolveComment,
  evolveContact,
  evolveFollows,
  evolveHandle,
  evolveNotifications,
  evolvePins,
  evolvePost,
  evolvePostReport,
  evolveProjection,
  evolveReport,
  evolveTags,
  evolveUser,
  evolveVote,
  initialAnnouncementState,
  initialCommentState,
  initialContactMessageState,
  initialFollowsState,
  initialHandleState,
  initialNotificationsState,
  initialPinsState,
  initialPostState,
  initialProjectionState,
  initialReportState,
  initialTagsState,
  initialUserState,
  initialVoteState,
  handleKey,
  recordRebuild,
  refuseClosedAccount,
  refuseSuspended,
  roleOf,
  type AboutItem,
  type PinsState,
  type CommandMeta,
  type CommentState,
  type FollowsState,
  type HandleDecision,
  type HandleState,
  type NotificationsState,
  type PostState,
  type TagsState,
  type UserState,
  type VoteState,
  type ReportState,
  type AnnouncementState,
  type ContactMessageState,
  type ProjectionState,
} from '@forum/command-service';
import {
  announcementStream,
  commentStream,
  DELIVERIES_OF,
  followsStream,
  handleStream,
  isStaffRole,
  PINS_STREAM,
  postStream,
  SUSPENSION_PERIOD_SECONDS,
  TAGS_STREAM,
  userStream,
  type ForumEvent,
  type HandleChanged,
  type NotificationKind,
} from '@forum/contracts';
import { describe, expect, it } from 'vitest';
import { syntheticLog, type SyntheticEvent } from './synthetic-log.ts';

type State =
  | UserState
  | PostState
  | CommentState
  | VoteState
  | ReportState
  | NotificationsState
  | TagsState
  | AnnouncementState
  | ContactMessageState
  | ProjectionState
  | FollowsState
  | HandleState
  | PinsState;
type Evolve = (state: never, event: never) => State;

/** Each stream type's evolve and initial state, by the stream id's prefix. */
const folds: [prefix: string, evolve: Evolve, initial: State][] = [
  ['user-', evolveUser, initialUserState],
  ['post-report-', evolvePostReport, initialReportState],
  ['post-', evolvePost, initialPostState],
  ['comment-', evolveComment, initialCommentState],
  ['vote-', evolveVote, initialVoteState],
  ['report-', evolveReport, initialReportState],
  ['notifications-', evolveNotifications, initialNotificationsState],
  [TAGS_STREAM, evolveTags, initialTagsState],
  ['announcement-', evolveAnnouncement, initialAnnouncementState],
  ['contact-', evolveContact, initialContactMessageState],
  ['projection-', evolveProjection, initialProjectionState],
  [followsStream(''), evolveFollows, initialFollowsState],
  [handleStream(''), evolveHandle, initialHandleState],
  [PINS_STREAM, evolvePins, initialPinsState],
];
const foldOf = (streamId: string) => folds.find(([prefix]) => streamId.startsWith(prefix))!;

/** The log's commands: runs of events with one correlation id and one time. */
function commandsOf(log: readonly SyntheticEvent[]): SyntheticEvent[][] {
  const commands: SyntheticEvent[][] = [];
  for (const event of log) {
    const last = commands.at(-1)?.[0];
    if (last && last.metadata.correlationId === event.metadata.correlationId && last.recordedAt === event.recordedAt) commands.at(-1)!.push(event);
    else commands.push([event]);
  }
  return commands;
}

/**
 * Replays a log through the forum's deciders: for each event, the command it records is decided again
 * on the states folded (with the deciders' evolve) from the events before it, as the command side loads
 * them, and must give that very event. What it finds wrong, at most `max` of it.
 */
function redecide(log: readonly SyntheticEvent[], max = 10): string[] {
  const states = new Map<string, State>();
  const stateOf = <S extends State>(streamId: string): S => (states.get(streamId) ?? foldOf(streamId)[2]) as S;
  const wrong: string[] = [];
  for (const command of commandsOf(log)) {
    const first = command[0]!;
    const actorId = first.metadata.actorId;
    const meta: CommandMeta = { ...first.metadata, now: new Date(first.recordedAt) };
    const byUser = actorId !== 'anonymous' && !actorId.startsWith('operator:');
    // the actor as the command side loads them: registered in this command's append when new
    let actor = stateOf<UserState>(userStream(actorId));
    if (byUser) for (const e of command) if (e.streamId === userStream(actorId) && e.type === 'UserRegistered') actor = evolveUser(actor, e as never);
    const role = roleOf(actor);
    const staff = isStaffRole(role);
    const erased = command.find((e) => e.type === 'AccountErased')?.data.userId as string | undefined;
    const running = new Map<string, State>();
    for (const event of command) {
      const e = { type: event.type, data: event.data } as ForumEvent;
      const own = (running.get(event.streamId) ?? stateOf(event.streamId)) as never;
      const post = (postId: string) => stateOf<PostState>(postStream(postId));
      const comment = (commentId: string) => stateOf<CommentState>(commentStream(commentId));
      const registered = () => {
        if (!byUser) throw new Error('no user acts');
        refuseClosedAccount(actor);
        if (actor.status !== 'registered') throw new Error('the actor is not registered');
        return actor;
      };
      /**
       * The command's handle decision, as command-service's registration or profile change gives it: on the
       * member's record before its HandleChanged (their registration in this append folded in) and the new
       * handle's stream before the command.
       */
      const handleDecision = (): HandleDecision => {
        const changed = command.find((c) => c.type === 'HandleChanged');
        if (!changed) throw new Error('a handle is claimed or released only with a HandleChanged');
        const { userId, handle, source } = changed.data as HandleChanged['data'];
        if ((source === 'profile' ? writer() : registered()).userId !== userId) throw new Error('a handle is changed by its owner');
        let user = stateOf<UserState>(userStream(userId));
        for (const c of command.slice(0, command.indexOf(changed))) if (c.streamId === userStream(userId)) user = evolveUser(user, c as never);
        const claimed = stateOf<HandleState>(handleStream(handleKey(handle)));
        return decideHandle(
          source === 'profile'
            ? { type: 'ChangeHandle', data: { userId, handle, user, claimed } }
            : { type: 'GiveHandle', data: { userId, handle, source, user, claimed } },
          meta,
        );
      };
      const requireAdmin = () => {
        if (registered().role !== 'admin') throw new Error('not an admin');
      };
      const requireStaff = () => {
        if (!isStaffRole(registered().role)) throw new Error('not staff');
      };
      /** The actor of a write a suspended member may not make (their posts, comments, votes, reports, profile). */
      const writer = () => {
        const user = registered();
        refuseSuspended(user, meta.now);
        return user;
      };
      const acting = () => ({ id: registered().userId, role });
      const roleOfUser = (userId: string) => roleOf(stateOf<UserState>(userStream(userId)));
      const decide = (): ForumEvent[] => {
        switch (e.type) {
          case 'UserRegistered':
            return decideUser(
              {
                type: 'RegisterUser',
                data: { userId: e.data.userId, email: e.data.email, name: e.data.name, photoURL: e.data.photoURL, adminEmails: new Set() },
              },
              own,
              meta,
            );
          case 'AdminRoleGranted':
            if (e.data.reason === 'admin-emails') {
              // the address is one of ADMIN_EMAILS, and the token vouches for it
              const { email } = own as Extract<UserState, { status: 'registered' }>;
              return decideUser({ type: 'GrantAdminByEmail', data: { email, emailVerified: true, adminEmails: new Set([email]) } }, own, meta);
            }
            if (e.data.reason === 'admin') requireAdmin();
            else if (byUser) throw new Error('only an operator grants as the operator');
            return decideUser({ type: 'GrantAdmin', data: { reason: e.data.reason } }, own, meta);
          case 'ProfileUpdated': {
            const { changes } = e.data;
            if (writer().userId !== e.data.userId) throw new Error('a profile is changed by its owner');
            return decideUser(
              {
                type: 'UpdateProfile',
                data: {
                  ...(changes.name !== undefined && { displayName: changes.name }),
                  ...(changes.photoURL !== undefined && { photoURL: changes.photoURL }),
                },
              },
              own,
              meta,
            );
          }
          case 'PostAuthored':
            return decideUser({ type: 'AuthorPost', data: { postId: e.data.postId } }, own, meta);
          case 'AuthoredPostRemoved':
            return decideUser({ type: 'RemoveAuthoredPost', data: { postId: e.data.postId } }, own, meta);
          case 'MembershipPurchaseStarted':
            return decideUser({ type: 'StartMembershipPurchase', data: { attemptId: e.data.attemptId, staleAfterMs: Number.POSITIVE_INFINITY } }, own, meta);
          case 'MembershipPurchased':
            return decideUser(
              { type: 'CompleteMembershipPurchase', data: { attemptId: e.data.attemptId, paymentReference: e.data.paymentReference } },
              own,
              meta,
            );
          case 'MembershipPurchaseFailed':
            return decideUser({ type: 'FailMembershipPurchase', data: { attemptId: e.data.attemptId, reason: e.data.reason } }, own, meta);
          case 'AccountDisabled':
          case 'AccountEnabled':
            requireAdmin();
            return decideUser({ type: 'SetAccountAccess', data: { userId: e.data.userId, enabled: e.type === 'AccountEnabled' } }, own, meta);
          case 'AccountErased':
            if (registered().userId !== e.data.userId) requireAdmin();
            return decideUser({ type: 'EraseAccount', data: { userId: e.data.userId, content: e.data.content } }, own, meta);
          case 'PostCreated':
            return decidePost(
              {
                type: 'CreatePost',
                data: {
                  postId: e.data.postId,
                  title: e.data.title,
                  description: e.data.description,
                  tags: e.data.tags,
                  author: authorOf(writer()),
                  knownTags: stateOf(TAGS_STREAM),
                },
              },
              own,
              meta,
            );
          case 'PostDeleted':
            return erased
              ? decidePost({ type: 'ErasePost', data: { postId: e.data.postId, authorId: erased, actorId } }, own, meta)
              : decidePost(
                  {
                    type: 'DeletePost',
                    data: { postId: e.data.postId, actor: { id: writer().userId, role }, authorRole: roleOfUser(e.data.authorId) },
                  },
                  own,
                  meta,
                );
          case 'PostEdited': {
            // the fields the editor sent: those that differ from the post's (tags the post keeps may have been retired since)
            const before = own as PostState;
            const was = before.status === 'created' ? before : null;
            const { title, description, tags, reason } = e.data;
            return decidePost(
              {
                type: 'EditPost',
                data: {
                  postId: e.data.postId,
                  editor: { id: writer().userId, isStaff: staff },
                  ...(title !== was?.title && { title }),
                  ...(description !== was?.description && { description }),
                  ...(!isDeepStrictEqual(tags, was?.tags) && { tags }),
                  ...(reason !== undefined && { reason }),
                  knownTags: stateOf(TAGS_STREAM),
                },
              },
              own,
              meta,
            );
          }
          case 'CommentEdited':
            return decideComment(
              {
                type: 'EditComment',
                data: {
                  commentId: e.data.commentId,
                  editor: { id: writer().userId, isStaff: staff },
                  text: e.data.text,
                  ...(e.data.reason !== undefined && { reason: e.data.reason }),
                  post: post(e.data.postId),
                },
              },
              own,
              meta,
            );
          case 'CommentAdded':
            return decideComment(
              {
                type: 'AddComment',
                data: {
                  commentId: e.data.commentId,
                  postId: e.data.postId,
                  text: e.data.text,
                  author: authorOf(writer()),
                  post: post(e.data.postId),
                  authorIsStaff: staff,
                },
              },
              own,
              meta,
            );
          case 'CommentRemoved':
            return erased
              ? decideComment({ type: 'EraseComment', data: { commentId: e.data.commentId, authorId: erased, actorId } }, own, meta)
              : decideComment(
                  { type: 'RemoveComment', data: { commentId: e.data.commentId, actor: acting(), authorRole: roleOfUser(e.data.authorId) } },
                  own,
                  meta,
                );
          case 'CommentReported':
            return decideReport(
              {
                type: 'ReportComment',
                data: {
                  commentId: e.data.commentId,
                  reporter: authorOf(writer()),
                  reporterIsStaff: staff,
                  feedback: e.data.feedback,
                  comment: comment(e.data.commentId),
                  post: post(e.data.postId),
                },
              },
              own,
              meta,
            );
          case 'VoteCast':
            return decideVote(
              { type: 'SetVote', data: { postId: e.data.postId, userId: writer().userId, vote: e.data.vote, post: post(e.data.postId), voterIsStaff: staff } },
              own,
              meta,
            );
          case 'UserWarned':
            return decideNotification(
              {
                type: 'WarnUser',
                data: {
                  warningId: e.data.warningId,
                  reason: e.data.reason,
                  ...(e.data.commentId !== undefined && { commentId: e.data.commentId, comment: comment(e.data.commentId) }),
                  ...(e.data.commentId === undefined && e.data.postId !== undefined && { postId: e.data.postId, post: post(e.data.postId) }),
                  actor: acting(),
                  target: stateOf(userStream(e.data.userId)),
                },
              },
              own,
              meta,
            );
          case 'WarningsRead':
            return decideNotification({ type: 'MarkNotificationsRead', data: { userId: registered().userId, ids: e.data.warningIds } }, own, meta);
          case 'NotificationsRead': {
            const { ids, upTo } = e.data;
            return decideNotification({ type: 'MarkNotificationsRead', data: { userId: registered().userId, ...(ids ? { ids } : { upTo }) } }, own, meta);
          }
          case 'AnnouncementsRead':
            return decideNotification(
              { type: 'MarkAnnouncementsRead', data: { userId: registered().userId, announcement: stateOf(announcementStream(e.data.announcementId)) } },
              own,
              meta,
            );
          case 'TagCreated':
            requireAdmin();
            return decideTag({ type: 'CreateTag', data: { tagId: e.data.tagId, name: e.data.name } }, own, meta);
          case 'TagDeleted':
            requireAdmin();
            return decideTag({ type: 'DeleteTag', data: { tagId: e.data.tagId } }, own, meta);
          case 'AnnouncementPublished':
            requireAdmin();
            return decideAnnouncement(
              {
                type: 'PublishAnnouncement',
                data: { announcementId: e.data.announcementId, title: e.data.title, description: e.data.description, author: authorOf(registered()) },
              },
              own,
              meta,
            );
          case 'ContactMessageReceived':
            return decideContact(
              { type: 'ReceiveContactMessage', data: { messageId: e.data.messageId, name: e.data.name, email: e.data.email, message: e.data.message } },
              own,
              meta,
            );
          case 'ProjectionRebuildRequested':
            if (byUser) requireAdmin();
            return recordRebuild({ projection: e.data.projection, version: e.data.version, build: e.data.build, resumed: e.data.resumed }, meta);
          case 'HandleClaimed':
            return handleDecision().claimed;
          case 'HandleReleased':
            return handleDecision().released;
          case 'HandleChanged':
            return handleDecision().user;
          case 'PostFollowed':
          case 'PostUnfollowed':
            return decideFollow(
              {
                type: e.type === 'PostFollowed' ? 'FollowPost' : 'UnfollowPost',
                data: { userId: registered().userId, postId: e.data.postId, post: post(e.data.postId) },
              },
              own,
              meta,
            );
          case 'TagFollowed':
          case 'TagUnfollowed':
            return decideFollow(
              {
                type: e.type === 'TagFollowed' ? 'FollowTag' : 'UnfollowTag',
                data: { userId: registered().userId, name: e.data.tag, tags: stateOf(TAGS_STREAM) },
              },
              own,
              meta,
            );
          case 'NotificationPreferencesChanged': {
            const { userId, changes, via } = e.data;
            if (via === 'unsubscribe') {
              // no sign-in: the link names the member (the actor) and its kinds, which become 'app'
              if (actorId !== userId) throw new Error('an unsubscribe link acts as its member');
              const kinds = Object.fromEntries(Object.keys(changes).map((kind) => [kind, 'app']));
              return decidePreferences(
                { type: 'ChangeNotificationPreferences', data: { userId, changes: kinds, via, member: stateOf(userStream(userId)) } },
                own,
                meta,
              );
            }
            for (const [kind, delivery] of Object.entries(changes))
              if (!DELIVERIES_OF[kind as NotificationKind].includes(delivery)) throw new Error(`the route refuses ${kind}: ${delivery}`);
            return decidePreferences(
              { type: 'ChangeNotificationPreferences', data: { userId: registered().userId, changes, via, member: registered() } },
              own,
              meta,
            );
          }
          case 'ModeratorRoleGranted':
          case 'ModeratorRoleRevoked':
            requireAdmin();
            return decideMemberModeration(
              { type: e.type === 'ModeratorRoleGranted' ? 'GrantModerator' : 'RevokeModerator', data: { actorId: registered().userId } },
              own,
              meta,
            );
          case 'MemberSuspended': {
            requireStaff();
            const { until, reason, about } = e.data;
            // the period staff chose, as its end says
            const length = until === null ? null : Date.parse(until) - meta.now.getTime();
            const period =
              until === null
                ? 'indefinite'
                : length === SUSPENSION_PERIOD_SECONDS.day * 1000
                  ? 'day'
                  : length === SUSPENSION_PERIOD_SECONDS.week * 1000
                    ? 'week'
                    : 'date';
            const item: AboutItem | undefined =
              about &&
              (about.kind === 'post' ? { kind: 'post', id: about.id, post: post(about.id) } : { kind: 'comment', id: about.id, comment: comment(about.id) });
            return decideMemberModeration(
              { type: 'SuspendMember', data: { actor: acting(), reason, period, ...(period === 'date' && { until: until! }), ...(item && { about: item }) } },
              own,
              meta,
            );
          }
          case 'SuspensionLifted':
            requireStaff();
            return decideMemberModeration({ type: 'LiftSuspension', data: { actor: acting() } }, own, meta);
          case 'PostReported':
            return decidePostReport(
              {
                type: 'ReportPost',
                data: { postId: e.data.postId, reporter: authorOf(writer()), reporterIsStaff: staff, feedback: e.data.feedback, post: post(e.data.postId) },
              },
              own,
              meta,
            );
          case 'ReportsDismissed': {
            requireStaff();
            const { item } = e.data;
            return item.kind === 'post'
              ? decidePostModeration({ type: 'DismissPostReports', data: { postId: item.id, actor: acting() } }, own, meta)
              : decideCommentModeration({ type: 'DismissCommentReports', data: { commentId: item.id, actor: acting(), post: post(item.postId) } }, own, meta);
          }
          case 'PostHidden':
          case 'PostUnhidden': {
            requireStaff();
            const data = { postId: e.data.postId, actor: acting(), authorRole: roleOfUser(e.data.authorId) };
            return decidePostModeration(
              e.type === 'PostHidden' ? { type: 'HidePost', data: { ...data, reason: e.data.reason } } : { type: 'UnhidePost', data },
              own,
              meta,
            );
          }
          case 'CommentHidden':
          case 'CommentUnhidden': {
            requireStaff();
            const data = { commentId: e.data.commentId, actor: acting(), authorRole: roleOfUser(e.data.authorId), post: post(e.data.postId) };
            return decideCommentModeration(
              e.type === 'CommentHidden' ? { type: 'HideComment', data: { ...data, reason: e.data.reason } } : { type: 'UnhideComment', data },
              own,
              meta,
            );
          }
          case 'PostLocked':
            requireStaff();
            return decidePostModeration(
              { type: 'LockPost', data: { postId: e.data.postId, actor: acting(), ...(e.data.reason !== undefined && { reason: e.data.reason }) } },
              own,
              meta,
            );
          case 'PostUnlocked':
            requireStaff();
            return decidePostModeration({ type: 'UnlockPost', data: { postId: e.data.postId, actor: acting() } }, own, meta);
          case 'PostPinned': {
            requireStaff();
            const pinnedPosts = new Map((own as PinsState).pinned.map((id) => [id, post(id)]));
            return decidePins(
              { type: 'PinPost', data: { postId: e.data.postId, actorId: registered().userId, post: post(e.data.postId), pinnedPosts } },
              own,
              meta,
            );
          }
          case 'PostUnpinned':
            requireStaff();
            return decidePins({ type: 'UnpinPost', data: { postId: e.data.postId, actorId: registered().userId, post: post(e.data.postId) } }, own, meta);
          default:
            return unrecorded(e);
        }
      };
      try {
        const decided = decide();
        const expected = [{ type: event.type, data: event.data }];
        if (!isDeepStrictEqual(JSON.parse(JSON.stringify(decided)), expected)) throw new Error(`decided ${JSON.stringify(decided)}`);
      } catch (error) {
        if (wrong.length < max) wrong.push(`${event.type} on ${event.streamId} by ${actorId}: ${(error as Error).message}`);
      }
      running.set(event.streamId, (foldOf(event.streamId)[1] as (state: State, event: unknown) => State)(own, event));
    }
    for (const [streamId, state] of running) states.set(streamId, state);
  }
  return wrong;
}

const unrecorded = (event: never): never => {
  throw new Error(`no command records ${JSON.stringify(event)}`);
};

describe('a synthetic log, replayed through the forum’s deciders', () => {
  const log = [...syntheticLog({ events: 20_000, seed: 42 })];

  it('is what they decide: every event is the one its command gives on the states folded from the log before it', () => {
    expect(redecide(log)).toEqual([]);
  });

  it('holds no vote on one’s own post and no report of one’s own comment', () => {
    const commentAuthors = new Map(log.filter((e) => e.type === 'CommentAdded').map((e) => [e.data.commentId, e.data.authorId]));
    const postAuthors = new Map(log.filter((e) => e.type === 'PostCreated').map((e) => [e.data.postId, e.data.authorId]));
    const selfVotes = log.filter((e) => e.type === 'VoteCast' && e.data.vote !== 'none' && postAuthors.get(e.data.postId) === e.data.userId);
    const selfReports = log.filter((e) => e.type === 'CommentReported' && commentAuthors.get(e.data.commentId) === e.data.reporterId);
    expect({ selfVotes: selfVotes.length, selfReports: selfReports.length }).toEqual({ selfVotes: 0, selfReports: 0 });
  });

  it('catches a rule broken: a vote by a post’s author on it is refused', () => {
    const created = log.find((e) => e.type === 'PostCreated')!;
    const vote = log.find((e) => e.type === 'VoteCast' && e.data.postId === created.data.postId)!;
    const selfVote = {
      ...vote,
      metadata: { ...vote.metadata, actorId: created.data.authorId as string },
      data: { ...vote.data, userId: created.data.authorId },
      streamId: `vote-${created.data.postId as string}-${created.data.authorId as string}`,
    };
    const at = log.indexOf(vote);
    expect(redecide([...log.slice(0, at), selfVote as SyntheticEvent])).toEqual([expect.stringMatching(/^VoteCast .* own post/)]);
  });

  it('catches a rule broken: an edit within the grace period written as a new revision', () => {
    const revisions = new Map<string, number>();
    const folded = log.find((e) => {
      if (e.type !== 'PostEdited' && e.type !== 'CommentEdited') return false;
      const before = revisions.get(e.streamId) ?? 1;
      revisions.set(e.streamId, e.data.revision as number);
      return e.data.revision === before;
    })!;
    const asNew = { ...folded, data: { ...folded.data, revision: (folded.data.revision as number) + 1 } };
    expect(redecide([...log.slice(0, log.indexOf(folded)), asNew])).toEqual([expect.stringMatching(/^(Post|Comment)Edited .* decided .*"revision"/)]);
  });

  it('catches a rule broken: a profile change to a handle another member holds (409 HANDLE_TAKEN) written as a claim', () => {
    const taken = log.find((e) => e.type === 'HandleClaimed')!;
    const change = log.find((e) => e.type === 'HandleChanged' && e.data.source === 'profile' && e.data.userId !== taken.data.userId)!;
    const command = log.filter((e) => e.metadata.correlationId === change.metadata.correlationId);
    const stolen = command.map((e) =>
      e.type === 'HandleClaimed'
        ? { ...e, streamId: taken.streamId, data: { ...e.data, handle: taken.data.handle } }
        : e.type === 'HandleChanged'
          ? { ...e, data: { ...e.data, handle: taken.data.handle } }
          : e,
    );
    expect(redecide([...log.slice(0, log.indexOf(command[0]!)), ...stolen])).toEqual(
      stolen.map((e): unknown => expect.stringMatching(new RegExp(`^${e.type} .* handle is taken`))),
    );
  });
});
