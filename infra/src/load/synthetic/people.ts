import { decideTag, decideUser, evolveUser, type CommandMeta, type UserCommand } from '@forum/command-service';
import type { UserEvent } from '@forum/contracts';
import { registrationHandle } from './handles.ts';
import { FIRST_NAMES, LAST_NAMES } from './randomness.ts';
import { decided, registeredState, type SimulatedForum, type SyntheticEvent, type User } from './simulated-forum.ts';

/*
 * People and tags: registrations (with their handles), profiles, memberships, admins, and the admins' tags, each decided by
 * the forum's deciders on the streams the simulated forum keeps.
 */

/** A subject's first request: what the command side records of them (their claims; admin when their address is an ADMIN_EMAILS one). */
export function arrival(forum: SimulatedForum, user: User, meta: CommandMeta, adminEmail = false): UserEvent[] {
  const { pick, rand } = forum.random;
  const first = pick(FIRST_NAMES);
  const last = pick(LAST_NAMES);
  const email = `${first}.${last}.${user.n}@example.test`.toLowerCase();
  const command: UserCommand = {
    type: 'RegisterUser',
    data: {
      userId: user.id,
      email,
      emailVerified: true,
      // a few tokens carry no name
      name: rand() < 0.02 ? '' : `${first} ${last}`,
      photoURL: rand() < 0.3 ? '' : `https://images.example.test/avatars/${user.n}.jpg`,
      adminEmails: new Set(adminEmail ? [email] : []),
    },
  };
  return decideUser(command, user.stream.state, meta);
}

/** Lists a user who became registered, member or admin by a command among those to pick from. */
export function listed(forum: SimulatedForum, user: User) {
  const state = registeredState(user);
  if (!state) return;
  if (!forum.registered.includes(user)) forum.registered.push(user);
  if (state.isMember && !forum.members.includes(user)) forum.members.push(user);
  if (state.role === 'admin' && !forum.admins.includes(user)) forum.admins.push(user);
  // a moderator made admin holds every power of one already
  if (state.role === 'admin' && forum.moderators.includes(user)) forum.moderators.splice(forum.moderators.indexOf(user), 1);
}

/** The forum opens: the first admin (ADMIN_EMAILS) signs in and creates the tags. */
export function* opening(forum: SimulatedForum, tagNames: readonly string[]): Generator<SyntheticEvent> {
  const founder = forum.newUser();
  yield* registration(forum, founder, true)!;
  for (const name of tagNames) {
    const meta = forum.meta(founder.id);
    yield* forum.write(meta, [decided(forum.tags, decideTag({ type: 'CreateTag', data: { tagId: forum.timeId(), name } }, forum.tags.state, meta))])!;
  }
}

/**
 * A new subject's first request, POST /api/me/registration (the apps call it after a sign-in): their
 * record and the handle it gives them, in one append (see `createPost` for those whose first request is a post).
 */
export function registration(forum: SimulatedForum, user: User, adminEmail = false): SyntheticEvent[] | null {
  const meta = forum.meta(user.id);
  const registered = arrival(forum, user, meta, adminEmail);
  const { changed, claim } = registrationHandle(forum, user, registered.reduce(evolveUser, user.stream.state), meta);
  const out = forum.write(meta, [decided(user.stream, [...registered, ...changed]), ...(claim ? [claim] : [])]);
  listed(forum, user);
  return out;
}

export function updateProfile(forum: SimulatedForum): SyntheticEvent[] | null {
  const { int, pick, rand } = forum.random;
  const user = forum.actor();
  const roll = rand();
  const displayName = roll < 0.7 ? `${pick(FIRST_NAMES)} ${pick(LAST_NAMES)} ${int(1000)}` : undefined;
  const photoURL = roll >= 0.6 ? `https://images.example.test/avatars/${user.n}-${int(1_000_000)}.jpg` : undefined;
  const meta = forum.meta(user.id);
  const events = decideUser(
    { type: 'UpdateProfile', data: { ...(displayName !== undefined && { displayName }), ...(photoURL !== undefined && { photoURL }) } },
    user.stream.state,
    meta,
  );
  return forum.write(meta, [decided(user.stream, events)]);
}

/** A user buys membership: the attempt, then its outcome in a second transaction, after the charge. */
export function buyMembership(forum: SimulatedForum): SyntheticEvent[] | null {
  for (let tries = 0; tries < 20; tries++) {
    const user = forum.actor();
    const attemptId = forum.timeId();
    const meta = forum.meta(user.id);
    // a purchase under way is never taken as stale here: nothing crashes between charge and record
    const started = forum.attempt(() =>
      forum.write(meta, [
        decided(
          user.stream,
          decideUser({ type: 'StartMembershipPurchase', data: { attemptId, staleAfterMs: Number.POSITIVE_INFINITY } }, user.stream.state, meta),
        ),
      ]),
    );
    if (!started) continue;
    const outcome = forum.meta(user.id);
    const charged = forum.random.rand() < 0.95;
    const ended = forum.write(outcome, [
      decided(
        user.stream,
        decideUser(
          charged
            ? { type: 'CompleteMembershipPurchase', data: { attemptId, paymentReference: `demo_${forum.random.uuid()}` } }
            : { type: 'FailMembershipPurchase', data: { attemptId, reason: 'card_declined' } },
          user.stream.state,
          outcome,
        ),
      ),
    ])!;
    listed(forum, user);
    return [...started, ...ended];
  }
  return null;
}

/** The operator CLI now and then, an admin in the console otherwise, makes a user admin. */
export function makeAdmin(forum: SimulatedForum): SyntheticEvent[] | null {
  if (forum.admins.length === 0) return null;
  const user = forum.actor();
  const byOperator = forum.random.rand() < 0.3;
  const meta = byOperator ? forum.operatorMeta() : forum.meta(forum.random.pick(forum.admins).id);
  const events = decideUser({ type: 'GrantAdmin', data: { reason: byOperator ? 'operator' : 'admin' } }, user.stream.state, meta);
  const out = forum.write(meta, [decided(user.stream, events)]);
  listed(forum, user);
  return out;
}

/** An admin retires a tag and creates another: posts keep the old text. */
export function replaceTag(forum: SimulatedForum): SyntheticEvent[] | null {
  const live = [...forum.tags.state.byName.values()];
  if (forum.admins.length === 0 || live.length < 2) return null;
  const admin = forum.random.pick(forum.admins);
  const gone = live[forum.random.int(live.length)]!;
  const deleting = forum.meta(admin.id);
  const deleted = forum.write(deleting, [decided(forum.tags, decideTag({ type: 'DeleteTag', data: { tagId: gone.id } }, forum.tags.state, deleting))])!;
  const creating = forum.meta(admin.id);
  const name = `${gone.name} ${forum.tags.version}`;
  const created = forum.write(creating, [
    decided(forum.tags, decideTag({ type: 'CreateTag', data: { tagId: forum.timeId(), name } }, forum.tags.state, creating)),
  ])!;
  return [...deleted, ...created];
}
