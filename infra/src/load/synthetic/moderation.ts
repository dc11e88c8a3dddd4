import { decideComment, decideNotification, decideUser, evolveProjection, initialProjectionState, recordRebuild, roleOf } from '@forum/command-service';
import { projectionStream } from '@forum/contracts';
import { erasedContent } from './posts.ts';
import { decided, keptStream, registeredState, type SimulatedForum, type SyntheticEvent, type User } from './simulated-forum.ts';

/*
 * What staff and operators do to others: remove comments, warn (and the warned read their warnings),
 * erase and disable accounts, rebuild projections; each decided by the forum's deciders on the streams
 * the simulated forum keeps.
 */

/** Projections an operator rebuilds now and then (build 1 is the first start's). */
const REBUILT = ['posts', 'users', 'comments', 'audit'];

const adminOf = (forum: SimulatedForum) => (forum.admins.length === 0 ? null : forum.random.pick(forum.admins));
/** An admin or, a third of the time when there are some, a moderator. */
export const staffOf = (forum: SimulatedForum) =>
  forum.moderators.length > 0 && forum.random.rand() < 0.33 ? forum.random.pick(forum.moderators) : adminOf(forum);
const isAdmin = (user: User) => registeredState(user)?.role === 'admin';
const actingOf = (user: User) => ({ id: user.id, role: roleOf(user.stream.state) });

/** Staff remove a comment they can see (one under a post that is still there). */
export function removeComment(forum: SimulatedForum): SyntheticEvent[] | null {
  if (forum.admins.length === 0) return null;
  for (let tries = 0; tries < 20 && forum.liveComments.length > 0; tries++) {
    const comment = forum.random.pick(forum.liveComments);
    if (comment.post.slot < 0) continue;
    const admin = staffOf(forum)!;
    const meta = forum.meta(admin.id);
    const events = decideComment(
      { type: 'RemoveComment', data: { commentId: comment.id, actor: actingOf(admin), authorRole: roleOf(comment.author.stream.state) } },
      comment.stream.state,
      meta,
    );
    const out = forum.write(meta, [decided(comment.stream, events)]);
    forum.unlist(forum.liveComments, comment);
    return out;
  }
  return null;
}

/** Staff warn a comment's author, mostly about that comment; now and then a post's author about their post. */
export function warn(forum: SimulatedForum): SyntheticEvent[] | null {
  const by = staffOf(forum);
  if (!by || forum.comments.length === 0) return null;
  const { pick, rand, sentence } = forum.random;
  const comment = pick(forum.comments);
  const post = rand() < 0.2 ? comment.post : null;
  const target = post ? post.author : comment.author;
  const meta = forum.meta(by.id);
  const warningId = forum.timeId();
  const reason = rand() < 0.5 ? undefined : sentence(4, 20);
  const about = post ? { postId: post.id, post: post.stream.state } : rand() < 0.7 ? { commentId: comment.id, comment: comment.stream.state } : {};
  const notifications = forum.notificationsOf(target);
  const out = forum.attempt(() => {
    const command = {
      warningId,
      ...(reason !== undefined && { reason }),
      ...about,
      actor: actingOf(by),
      target: target.stream.state,
    };
    return forum.write(meta, [decided(notifications, decideNotification({ type: 'WarnUser', data: command }, notifications.state, meta))]);
  });
  if (out && !forum.warned.includes(target)) forum.warned.push(target);
  return out;
}

/** A warned user reads all their warnings. */
export function readWarnings(forum: SimulatedForum): SyntheticEvent[] | null {
  if (forum.warned.length === 0) return null;
  const index = forum.random.int(forum.warned.length);
  const user = forum.warned[index]!;
  forum.warned[index] = forum.warned.at(-1)!;
  forum.warned.pop();
  const notifications = forum.notificationsOf(user);
  const meta = forum.meta(user.id);
  // by their ids: the warnings alone (all of them would read the member's other notifications too)
  const ids = [...notifications.state.warnings.keys()];
  return forum.write(meta, [
    decided(notifications, decideNotification({ type: 'MarkNotificationsRead', data: { userId: user.id, ids } }, notifications.state, meta)),
  ]);
}

/** A member marks all their notifications read (one with no unread warning: that would be a WarningsRead too). */
export function readNotifications(forum: SimulatedForum): SyntheticEvent[] | null {
  const member = forum.actor();
  const notifications = forum.notificationsOf(member);
  if ([...notifications.state.warnings.values()].some((warning) => !warning.read)) return null;
  const meta = forum.meta(member.id);
  return forum.write(meta, [
    decided(notifications, decideNotification({ type: 'MarkNotificationsRead', data: { userId: member.id } }, notifications.state, meta)),
  ]);
}

/** An admin disables an account in the identity realm, and enables it again later. */
export function disableAndEnable(forum: SimulatedForum): SyntheticEvent[] | null {
  const user = forum.actor();
  if (registeredState(user)?.role === 'admin' || forum.admins.length === 0) return null;
  const admin = forum.random.pick(forum.admins);
  const setAccess = (enabled: boolean) => {
    const meta = forum.meta(admin.id);
    return (
      forum.write(meta, [decided(user.stream, decideUser({ type: 'SetAccountAccess', data: { userId: user.id, enabled } }, user.stream.state, meta))]) ?? []
    );
  };
  return [...setAccess(false), ...setAccess(true)];
}

/**
 * A member (not an admin, and not before the community is built up: the log's first 50 members)
 * erases their account, or an admin does; half of them take their content with them.
 */
export function erase(forum: SimulatedForum): SyntheticEvent[] | null {
  let user = forum.actor();
  for (let tries = 0; tries < 20 && isAdmin(user); tries++) user = forum.actor();
  if (isAdmin(user) || forum.registered.length < 50 || forum.admins.length === 0) return null;
  const { pick, rand } = forum.random;
  const by = rand() < 0.3 ? pick(forum.admins) : user;
  const content = rand() < 0.5 ? 'kept' : 'erased';
  const meta = forum.meta(by.id);
  const events = decideUser({ type: 'EraseAccount', data: { userId: user.id, content } }, user.stream.state, meta);
  const going = content === 'erased' ? erasedContent(forum, user, by, meta) : null;
  const out = forum.write(meta, [...(going?.decisions ?? []), decided(user.stream, events)]);
  going?.unlist();
  // what they left behind, which staff edit now and then
  if (content === 'kept') forum.leftByErased.push(...forum.livePosts.filter((post) => post.author === user));
  for (const list of [forum.registered, forum.members, forum.warned, forum.moderators, forum.suspended]) {
    const index = list.indexOf(user);
    if (index >= 0) list.splice(index, 1);
  }
  return out;
}

/** An admin in the console or the operator CLI asks for a projection rebuild (the runner numbers the build). */
export function requestRebuild(forum: SimulatedForum): SyntheticEvent[] | null {
  const name = forum.random.pick(REBUILT);
  const projection = forum.projections.get(name) ?? { stream: keptStream(projectionStream(name), initialProjectionState, evolveProjection), build: 1 };
  forum.projections.set(name, projection);
  projection.build += 1;
  const admin = forum.random.rand() < 0.5 ? null : adminOf(forum);
  const meta = admin ? forum.meta(admin.id) : forum.operatorMeta();
  return forum.write(meta, [decided(projection.stream, recordRebuild({ projection: name, version: 1, build: projection.build, resumed: false }, meta))]);
}
