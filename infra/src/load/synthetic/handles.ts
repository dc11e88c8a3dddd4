import { decideHandle, decideUser, handleCandidates, isValidHandle, randomHandles, type CommandMeta, type UserState } from '@forum/command-service';
import type { HandleChanged } from '@forum/contracts';
import { FIRST_NAMES, LAST_NAMES } from './randomness.ts';
import { decided, registeredState, type Decided, type Post, type SimulatedForum, type SyntheticEvent, type User } from './simulated-forum.ts';

/*
 * Handles and @mentions (docs/notifications.md#handles), decided by the forum's deciders on the
 * member's and the handles' streams the simulated forum keeps: the handle a registration gives (the
 * one chosen in the realm when valid and free, else one made from the name, as command-service's
 * registration tries them), a member's change of it in the profile, and texts that @mention members.
 */

/** The handle a subject chose in the realm's register form, if any: now and then one the rules refuse (registration then derives one). */
function chosenHandle(forum: SimulatedForum): string | undefined {
  const { int, pick, rand } = forum.random;
  const roll = rand();
  if (roll < 0.6) return undefined;
  if (roll < 0.62) return pick(['ab', 'admin', 'no spaces', '-dash']);
  return roll < 0.8 ? `${pick(FIRST_NAMES).toLowerCase()}${int(100)}` : `${pick(FIRST_NAMES)}.${pick(LAST_NAMES).slice(0, 8)}`;
}

/**
 * The handle registration gives `user` (registered by `arrival`, in the same append): the first of the
 * handles command-service's registration tries that is free. Its HandleChanged for the member's stream
 * and its claim; nothing when they have one already.
 */
export function registrationHandle(
  forum: SimulatedForum,
  user: User,
  arrived: UserState,
  meta: CommandMeta,
): { readonly changed: readonly HandleChanged[]; readonly claim: Decided | null } {
  if (arrived.status !== 'registered' || arrived.handle !== null) return { changed: [], claim: null };
  const chosen = chosenHandle(forum);
  const random = randomHandles(arrived.name, (min, max) => min + forum.random.int(max - min));
  const handle = [...handleCandidates(arrived.name, chosen), ...random].find((h) => [null, user.id].includes(forum.holderOf(h)));
  if (handle === undefined) return { changed: [], claim: null }; // the forum answers 409 and gives them one at their next sign-in
  const claimed = forum.handleStreamOf(handle);
  const source = handle === chosen ? 'registration' : 'derived';
  const decision = decideHandle({ type: 'GiveHandle', data: { userId: user.id, handle, source, user: arrived, claimed: claimed.state } }, meta);
  return { changed: decision.user, claim: decided(claimed, decision.claimed) };
}

/** A handle a member might pick in the profile: a name of theirs, or with digits. */
function anotherHandle(forum: SimulatedForum, current: string | null): string {
  const { int, pick, rand } = forum.random;
  const roll = rand();
  // a change of case only, on the same handle's stream
  if (current !== null && roll < 0.15 && /[a-z]/.test(current)) return current.replace(/[a-z]/, (c) => c.toUpperCase());
  const handle = roll < 0.6 ? `${pick(FIRST_NAMES)}_${pick(LAST_NAMES)}` : `${pick(FIRST_NAMES).toLowerCase()}.${int(10_000)}`;
  return isValidHandle(handle) ? handle : `${pick(FIRST_NAMES)}${int(10_000)}`;
}

/**
 * A member changes their handle in the profile (PATCH /api/me), now and then with their display name:
 * the old one is released, the new one claimed; null when another member has it (409 HANDLE_TAKEN).
 */
export function changeHandle(forum: SimulatedForum): SyntheticEvent[] | null {
  const { int, pick, rand } = forum.random;
  const user = forum.actor();
  const state = registeredState(user)!;
  const handle = anotherHandle(forum, state.handle);
  const displayName = rand() < 0.3 ? `${pick(FIRST_NAMES)} ${pick(LAST_NAMES)} ${int(1000)}` : undefined;
  const meta = forum.meta(user.id);
  return forum.attempt(() => {
    const profile = displayName === undefined ? [] : decideUser({ type: 'UpdateProfile', data: { displayName } }, state, meta);
    const claimed = forum.handleStreamOf(handle);
    const released = state.handle === null ? null : forum.handleStreamOf(state.handle);
    const decision = decideHandle({ type: 'ChangeHandle', data: { userId: user.id, handle, user: state, claimed: claimed.state } }, meta);
    return forum.write(meta, [
      decided(user.stream, [...profile, ...decision.user]),
      decided(claimed, decision.claimed),
      ...(released && released !== claimed ? [decided(released, decision.released)] : []),
    ]);
  });
}

/** A registered member's handle as someone writing might type it (now and then in other case); null when they have none. */
function handleOf(user: User | null, forum: SimulatedForum): string | null {
  const handle = (user && registeredState(user)?.handle) ?? null;
  return handle !== null && forum.random.rand() < 0.2 ? handle.toLowerCase() : handle;
}

/**
 * `text` @mentioning a member now and then (`share` of the texts): for a comment mostly the post's last
 * commenter or its author (someone in the conversation, who often follows it), else anyone with a handle.
 */
export function mentioning(forum: SimulatedForum, text: string, share: number, post?: Post): string {
  const { pick, rand } = forum.random;
  if (rand() >= share || forum.registered.length === 0) return text;
  const inConversation = post && rand() < 0.6 ? (rand() < 0.5 && post.lastCommenter ? post.lastCommenter : post.author) : null;
  const handle = handleOf(inConversation, forum) ?? handleOf(pick(forum.registered), forum);
  if (handle === null) return text;
  const words = text.split(' ');
  words.splice(1 + forum.random.int(words.length), 0, `@${handle}`);
  return words.join(' ');
}
