/**
 * The forum's pure deciders and the states they decide on, one name per stream type, for
 * code that writes the forum's events without its store or HTTP layer (the benchmarks'
 * synthetic log): `decideX(command, state, meta)` and `evolveX(state, event)` from `initialXState`.
 */
export { eventMetadata } from './command.ts';
export { authorOf, refuseClosedAccount, refuseSuspended, roleOf } from './actor.ts';
export { DomainError } from './errors.ts';
export { decide as decideAnnouncement, type AnnouncementCommand } from './announcement/decide.ts';
export { evolve as evolveAnnouncement, initialAnnouncementState, type AnnouncementState } from './announcement/announcement.ts';
export { decide as decideComment, type CommentCommand } from './comment/decide.ts';
export { evolve as evolveComment, initialCommentState, type CommentState } from './comment/comment.ts';
export { decide as decideContact, type ContactCommand } from './contact/decide.ts';
export { evolve as evolveContact, initialContactMessageState, type ContactMessageState } from './contact/contact.ts';
export { decide as decideFollow, type FollowCommand } from './follow/decide.ts';
export { evolve as evolveFollows, initialFollowsState, type FollowsState } from './follow/follow.ts';
export { decide as decideHandle, type HandleDecision } from './handle/decide.ts';
export { evolve as evolveHandle, handleKey, initialHandleState, type HandleState } from './handle/handle.ts';
export { handleCandidates, isValidHandle, randomHandles } from './handle/derive.ts';
export { decide as decideMemberModeration, suspensionEnd, type AboutItem, type MemberModerationCommand } from './moderation/member.ts';
export { decideCommentModeration, decidePostModeration, type CommentModeration, type PostModeration } from './moderation/content.ts';
export { decidePins, evolvePins, initialPinsState, type PinCommand, type PinsState } from './moderation/pins.ts';
export { decide as decideNotification, type NotificationCommand } from './notification/decide.ts';
export { evolve as evolveNotifications, initialNotificationsState, type NotificationsState } from './notification/notification.ts';
export { decidePreferences, deliveriesOf, type ChangeNotificationPreferences } from './notification/preferences.ts';
export { evolve as evolveProjection, initialProjectionState, recordRebuild, type ProjectionState } from './operations/projection.ts';
export { decide as decidePost, type Author, type PostCommand } from './post/decide.ts';
export { evolve as evolvePost, initialPostState, type PostState } from './post/post.ts';
export { decide as decideReport, decidePostReport, type ReportCommand, type ReportPost } from './report/decide.ts';
export { evolve as evolveReport, evolvePostReport, initialReportState, type ReportState } from './report/report.ts';
export { decide as decideTag, type TagCommand } from './tag/decide.ts';
export { evolve as evolveTags, initialTagsState, type TagsState } from './tag/tag.ts';
export { decide as decideUser, type UserCommand } from './user/decide.ts';
export { evolve as evolveUser, initialUserState, suspensionAt, type UserState } from './user/user.ts';
export { decide as decideVote, type VoteCommand } from './vote/decide.ts';
export { evolve as evolveVote, initialVoteState, type VoteState } from './vote/vote.ts';
