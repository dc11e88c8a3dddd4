import {
  authorOf,
  decideCommentModeration,
  decideMemberModeration,
  decidePins,
  decidePostModeration,
  decidePostReport,
  evolvePostReport,
  initialReportState,
  roleOf,
  type PostState,
} from '@forum/command-service';
import { isStaffRole, postReportStream, REPORT_FEEDBACK, type SuspensionPeriod } from '@forum/contracts';
import { staffOf } from './moderation.ts';
import { decided, keptStream, registeredState, type Comment, type Post, type SimulatedForum, type SyntheticEvent, type User } from './simulated-forum.ts';

/*
 * Moderation beyond comments (issue #43): admins make members moderators (and take it back); members
 * report posts; staff dismiss reports, hide and show again, lock and unlock, pin and unpin, suspend
 * and lift. Each decided by the forum's deciders on the streams the simulated forum keeps; a
 * refusal (a moderator acting on staff, the pin limit) writes nothing.
 */

const actingOf = (user: User) => ({ id: user.id, role: roleOf(user.stream.state) });
const roleOfUser = (user: User) => roleOf(user.stream.state);
const isStaff = (user: User) => isStaffRole(roleOfUser(user));

/** Puts a post or comment back among the live ones (shown again). */
function relist<T extends { slot: number }>(list: T[], item: T) {
  item.slot = list.length;
  list.push(item);
}

/** An admin makes a member a moderator; now and then takes a moderator's role back. */
export function moderatorRole(forum: SimulatedForum): SyntheticEvent[] | null {
  if (forum.admins.length === 0) return null;
  const { pick, rand } = forum.random;
  const admin = pick(forum.admins);
  const meta = forum.meta(admin.id);
  if (forum.moderators.length > 0 && rand() < 0.35) {
    const moderator = pick(forum.moderators);
    const events = decideMemberModeration({ type: 'RevokeModerator', data: { actorId: admin.id } }, moderator.stream.state, meta);
    const out = forum.write(meta, [decided(moderator.stream, events)]);
    forum.moderators.splice(forum.moderators.indexOf(moderator), 1);
    return out;
  }
  const member = forum.actor();
  if (roleOfUser(member) !== 'user' || forum.isSuspended(member)) return null;
  const out = forum.write(meta, [
    decided(member.stream, decideMemberModeration({ type: 'GrantModerator', data: { actorId: admin.id } }, member.stream.state, meta)),
  ]);
  forum.moderators.push(member);
  return out;
}

/** A member reports a post they can see (once: a second report is refused). */
export function reportPost(forum: SimulatedForum): SyntheticEvent[] | null {
  const post = forum.livePost();
  if (!post) return null;
  const reporter = forum.actor();
  const key = post.n * 16_777_216 + reporter.n;
  const stream = forum.postReports.get(key) ?? keptStream(postReportStream(post.id, reporter.id), initialReportState, evolvePostReport);
  const meta = forum.meta(reporter.id);
  const out = forum.attempt(() => {
    const data = {
      postId: post.id,
      reporter: authorOf(registeredState(reporter)!),
      reporterIsStaff: isStaff(reporter),
      feedback: forum.random.pick(REPORT_FEEDBACK),
      post: post.stream.state,
    };
    return forum.write(meta, [decided(stream, decidePostReport({ type: 'ReportPost', data }, stream.state, meta))]);
  });
  if (!out) return null;
  forum.postReports.set(key, stream);
  if (!forum.reportedPosts.includes(post)) forum.reportedPosts.push(post);
  return out;
}

/** Staff dismiss the reports of a reported post (when it is still there), else of a comment. */
export function dismiss(forum: SimulatedForum): SyntheticEvent[] | null {
  const by = staffOf(forum);
  if (!by) return null;
  const { pick } = forum.random;
  const meta = forum.meta(by.id);
  const reported = forum.reportedPosts.filter((post) => post.slot >= 0);
  if (reported.length > 0) {
    const post = pick(reported);
    forum.reportedPosts.splice(forum.reportedPosts.indexOf(post), 1);
    const events = decidePostModeration({ type: 'DismissPostReports', data: { postId: post.id, actor: actingOf(by) } }, post.stream.state, meta);
    return forum.write(meta, [decided(post.stream, events)]);
  }
  const comment = forum.liveComments.length > 0 ? pick(forum.liveComments) : undefined;
  if (!comment || comment.post.slot < 0) return null;
  const command = { type: 'DismissCommentReports' as const, data: { commentId: comment.id, actor: actingOf(by), post: comment.post.stream.state } };
  return forum.write(meta, [decided(comment.stream, decideCommentModeration(command, comment.stream.state, meta))]);
}

/** Staff hide a reported post or a comment with a reason (members no longer see it), or show a hidden one again. */
export function hide(forum: SimulatedForum): SyntheticEvent[] | null {
  const by = staffOf(forum);
  if (!by) return null;
  const { pick, rand, sentence } = forum.random;
  const meta = forum.meta(by.id);
  const actor = actingOf(by);
  const showAgain = rand() < 0.35;
  if (showAgain && forum.hiddenPosts.length > 0 && rand() < 0.5) {
    const post = pick(forum.hiddenPosts);
    const command = { type: 'UnhidePost' as const, data: { postId: post.id, actor, authorRole: roleOfUser(post.author) } };
    const out = forum.attempt(() => forum.write(meta, [decided(post.stream, decidePostModeration(command, post.stream.state, meta))]));
    if (out) shown(forum, forum.hiddenPosts, forum.livePosts, post);
    return out;
  }
  if (showAgain && forum.hiddenComments.length > 0) {
    const comment = pick(forum.hiddenComments);
    if (comment.post.slot < 0) return null;
    const command = {
      type: 'UnhideComment' as const,
      data: { commentId: comment.id, actor, authorRole: roleOfUser(comment.author), post: comment.post.stream.state },
    };
    const out = forum.attempt(() => forum.write(meta, [decided(comment.stream, decideCommentModeration(command, comment.stream.state, meta))]));
    if (out) shown(forum, forum.hiddenComments, forum.liveComments, comment);
    return out;
  }
  const reason = sentence(2, 10);
  const reported = forum.reportedPosts.filter((post) => post.slot >= 0);
  if (reported.length > 0 && rand() < 0.5) {
    const post = pick(reported);
    const command = { type: 'HidePost' as const, data: { postId: post.id, reason, actor, authorRole: roleOfUser(post.author) } };
    const out = forum.attempt(() => forum.write(meta, [decided(post.stream, decidePostModeration(command, post.stream.state, meta))]));
    if (out) hidden(forum, forum.livePosts, forum.hiddenPosts, post);
    return out;
  }
  const comment = forum.liveComments.length > 0 ? pick(forum.liveComments) : undefined;
  if (!comment || comment.post.slot < 0) return null;
  const command = {
    type: 'HideComment' as const,
    data: { commentId: comment.id, reason, actor, authorRole: roleOfUser(comment.author), post: comment.post.stream.state },
  };
  const out = forum.attempt(() => forum.write(meta, [decided(comment.stream, decideCommentModeration(command, comment.stream.state, meta))]));
  if (out) hidden(forum, forum.liveComments, forum.hiddenComments, comment);
  return out;
}

function hidden<T extends Post | Comment>(forum: SimulatedForum, live: T[], hiddenList: T[], item: T) {
  forum.unlist(live, item);
  hiddenList.push(item);
}

function shown<T extends Post | Comment>(_forum: SimulatedForum, hiddenList: T[], live: T[], item: T) {
  hiddenList.splice(hiddenList.indexOf(item), 1);
  relist(live, item);
}

/** Staff lock a live post (a reason now and then), or unlock a locked one. */
export function lock(forum: SimulatedForum): SyntheticEvent[] | null {
  const by = staffOf(forum);
  if (!by) return null;
  const { pick, rand, sentence } = forum.random;
  const meta = forum.meta(by.id);
  const locked = forum.lockedPosts.filter((post) => post.slot >= 0);
  if (locked.length > 0 && rand() < 0.4) {
    const post = pick(locked);
    forum.lockedPosts.splice(forum.lockedPosts.indexOf(post), 1);
    return forum.write(meta, [
      decided(post.stream, decidePostModeration({ type: 'UnlockPost', data: { postId: post.id, actor: actingOf(by) } }, post.stream.state, meta)),
    ]);
  }
  const post = forum.livePost();
  if (!post) return null;
  const reason = rand() < 0.5 ? sentence(2, 10) : undefined;
  const command = { type: 'LockPost' as const, data: { postId: post.id, actor: actingOf(by), ...(reason !== undefined && { reason }) } };
  const out = forum.write(meta, [decided(post.stream, decidePostModeration(command, post.stream.state, meta))]);
  if (out) forum.lockedPosts.push(post);
  return out;
}

/** Staff pin a live post (refused at the limit), or unpin a pinned one (deleted ones too). */
export function pin(forum: SimulatedForum): SyntheticEvent[] | null {
  const by = staffOf(forum);
  if (!by) return null;
  const { pick, rand } = forum.random;
  const meta = forum.meta(by.id);
  const pins = forum.pins;
  const postOf = (id: string) => forum.posts.find((post) => post.id === id)!;
  if (pins.state.pinned.length > 0 && rand() < 0.4) {
    const post = postOf(pick([...pins.state.pinned]));
    const command = { type: 'UnpinPost' as const, data: { postId: post.id, actorId: by.id, post: post.stream.state } };
    return forum.write(meta, [decided(pins, decidePins(command, pins.state, meta))]);
  }
  const post = forum.livePost();
  if (!post) return null;
  const pinnedPosts = new Map<string, PostState>(pins.state.pinned.map((id) => [id, postOf(id).stream.state]));
  const command = { type: 'PinPost' as const, data: { postId: post.id, actorId: by.id, post: post.stream.state, pinnedPosts } };
  return forum.attempt(() => forum.write(meta, [decided(pins, decidePins(command, pins.state, meta))]));
}

const PERIODS: readonly SuspensionPeriod[] = ['day', 'day', 'week', 'week', 'date', 'indefinite'];

/** Staff suspend a member (for a day, a week, to a date or until lifted), now and then about a reported post; or lift a suspension in force. */
export function suspend(forum: SimulatedForum): SyntheticEvent[] | null {
  const by = staffOf(forum);
  if (!by) return null;
  const { pick, rand, sentence, int } = forum.random;
  const meta = forum.meta(by.id);
  const inForce = forum.suspended.filter((user) => forum.isSuspended(user));
  if (inForce.length > 0 && rand() < 0.3) {
    const member = pick(inForce);
    return forum.attempt(() =>
      forum.write(meta, [decided(member.stream, decideMemberModeration({ type: 'LiftSuspension', data: { actor: actingOf(by) } }, member.stream.state, meta))]),
    );
  }
  const reported = forum.reportedPosts.filter((post) => roleOfUser(post.author) === 'user' && registeredState(post.author));
  const post = reported.length > 0 && rand() < 0.5 ? pick(reported) : null;
  const member = post ? post.author : forum.actor();
  if (roleOfUser(member) !== 'user' || member === by) return null;
  const period = pick(PERIODS);
  const until = period === 'date' ? new Date(meta.now.getTime() + (1 + int(30)) * 86_400_000).toISOString() : undefined;
  const data = {
    actor: actingOf(by),
    reason: sentence(3, 12),
    period,
    ...(until !== undefined && { until }),
    ...(post && { about: { kind: 'post' as const, id: post.id, post: post.stream.state } }),
  };
  const out = forum.attempt(() =>
    forum.write(meta, [decided(member.stream, decideMemberModeration({ type: 'SuspendMember', data }, member.stream.state, meta))]),
  );
  if (out && !forum.suspended.includes(member)) forum.suspended.push(member);
  return out;
}
