import { decideFollow, decidePreferences, deliveriesOf, type ChangeNotificationPreferences, type FollowCommand } from '@forum/command-service';
import { DELIVERIES_OF, NOTIFICATION_KINDS, type Delivery, type NotificationKind } from '@forum/contracts';
import { decided, registeredState, type SimulatedForum, type SyntheticEvent, type User } from './simulated-forum.ts';

/*
 * What members choose to hear about (docs/notifications.md): follows and unfollows of posts and tags,
 * and how each kind of notification reaches them, in the settings or through an email's unsubscribe
 * link; each decided by the forum's deciders on the streams the simulated forum keeps.
 */

/** A registered member, or null when `user` is not one (any more). */
const stillRegistered = (user: User | null) => (user && registeredState(user) ? user : null);

/**
 * Who chooses what: a member follows a post (mostly a recent one), or unfollows one they follow by
 * default as its last commenter or author, or follows a tag (as written or in other case), or unfollows
 * one they follow (which may have been deleted since); null when there is nothing to choose about.
 */
function choice(forum: SimulatedForum): { member: User; command: FollowCommand } | null {
  const { int, pick, rand } = forum.random;
  const roll = rand();
  const post = forum.livePost();
  if (post && roll < 0.65) {
    const member = roll < 0.4 ? forum.actor() : (stillRegistered(post.lastCommenter) ?? stillRegistered(post.author) ?? forum.actor());
    const type = roll < 0.4 ? 'FollowPost' : 'UnfollowPost';
    return { member, command: { type, data: { userId: member.id, postId: post.id, post: post.stream.state } } };
  }
  if (roll < 0.9 || forum.tagFollowers.length === 0) {
    const tags = [...forum.tags.state.byName.values()];
    if (tags.length === 0) return null;
    const member = forum.actor();
    const { name } = pick(tags);
    return { member, command: { type: 'FollowTag', data: { userId: member.id, name: rand() < 0.2 ? name.toLowerCase() : name, tags: forum.tags.state } } };
  }
  const index = int(forum.tagFollowers.length);
  const member = forum.tagFollowers[index]!;
  const followed = [...forum.followsOf(member).state.tags.values()];
  if (followed.length <= 1) forum.tagFollowers.splice(index, 1);
  if (!registeredState(member) || followed.length === 0) return null;
  return { member, command: { type: 'UnfollowTag', data: { userId: member.id, name: pick(followed), tags: forum.tags.state } } };
}

/** A member follows or unfollows a post or a tag (see `choice`); null when the choice was theirs already (it appends nothing). */
export function follow(forum: SimulatedForum): SyntheticEvent[] | null {
  const chosen = choice(forum);
  if (!chosen) return null;
  const { member, command } = chosen;
  const follows = forum.followsOf(member);
  const meta = forum.meta(member.id);
  const out = forum.attempt(() => forum.write(meta, [decided(follows, decideFollow(command, follows.state, meta))]));
  if (out && command.type === 'FollowTag' && !forum.tagFollowers.includes(member)) forum.tagFollowers.push(member);
  return out;
}

/** The kinds whose notifications an email may bring the member (so an email's unsubscribe link may name them). */
const emailed = (deliveries: Record<NotificationKind, Delivery>) =>
  NOTIFICATION_KINDS.filter((kind) => deliveries[kind] === 'email' || deliveries[kind] === 'digest');

/**
 * A member chooses how one to three kinds reach them in the settings (PUT /api/me/notification-preferences,
 * among the deliveries the route accepts for each), or now and then follows an email's unsubscribe link
 * (no sign-in: the link's member is the actor), which sets its kinds to the app only; null when nothing changes.
 */
export function choosePreferences(forum: SimulatedForum): SyntheticEvent[] | null {
  const { int, pick, rand } = forum.random;
  const member = forum.actor();
  const notifications = forum.notificationsOf(member);
  let changes: ChangeNotificationPreferences['data']['changes'];
  let via: ChangeNotificationPreferences['data']['via'];
  if (rand() < 0.2) {
    const kinds = emailed(deliveriesOf(notifications.state));
    if (kinds.length === 0) return null;
    via = 'unsubscribe';
    changes = Object.fromEntries((rand() < 0.7 ? [pick(kinds)] : kinds).map((kind) => [kind, 'app']));
  } else {
    via = 'settings';
    const chosen = Array.from({ length: 1 + int(3) }, () => pick(NOTIFICATION_KINDS));
    changes = Object.fromEntries(chosen.map((kind) => [kind, pick(DELIVERIES_OF[kind])]));
  }
  const meta = forum.meta(member.id);
  const data = { userId: member.id, changes, via, member: member.stream.state };
  return forum.write(meta, [decided(notifications, decidePreferences({ type: 'ChangeNotificationPreferences', data }, notifications.state, meta))]);
}
