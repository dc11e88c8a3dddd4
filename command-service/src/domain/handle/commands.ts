import { randomInt } from 'node:crypto';
import { positionToken, type HandleChanged } from '@forum/contracts';
import type { Identity } from '../actor.ts';
import { acceptedAs, positionOf, type Accepted, type CommandHandler, type Change, type Reader } from '../command-handler.ts';
import type { CommandMeta } from '../command.ts';
import { Conflict } from '../errors.ts';
import type { Executed, Idempotency } from '../execute.ts';
import type { Costs } from '../limits.ts';
import type { Read } from '../stream.ts';
import { decide as decideUser } from '../user/decide.ts';
import { userStreamOf, type UserState } from '../user/user.ts';
import { decide, type HandleDecision } from './decide.ts';
import { handleCandidates, isValidHandle, randomHandles } from './derive.ts';
import { handleStreamOf, type HandleState } from './handle.ts';

/** The first of `handles` that is free (or the member's own already), with its stream as read; null when none is. */
async function firstFree(reader: Reader, userId: string, handles: readonly string[]): Promise<{ handle: string; read: Read<HandleState> } | null> {
  for (const handle of handles) {
    const read = await reader.read(handleStreamOf(handle));
    if (read.state.holder === null || read.state.holder === userId) return { handle, read };
  }
  return null;
}

/** A decision's events as the changes of the streams read. */
const changesOf = (user: Read<UserState>, claimed: Read<HandleState> | null, released: Read<HandleState> | null, decision: HandleDecision): Change[] => [
  { to: user, events: decision.user },
  ...(claimed ? [{ to: claimed, events: decision.claimed }] : []),
  ...(released ? [{ to: released, events: decision.released }] : []),
];

/**
 * The commands that give and change a member's handle: each claims the handle on its own stream in
 * the append that records it on the member's (docs/notifications.md#handles). `written` is told of
 * each handle recorded, after the append (the identity provider's copy).
 */
export function createHandleCommands({ handleMany }: CommandHandler, cost: Costs, written: (userId: string, handle: string) => void = () => {}) {
  /** Runs `command`, noting the handle its last attempt decided; tells `written` once it was appended. */
  async function recording<Answer>(userId: string, command: (decided: (events: readonly HandleChanged[]) => void) => Promise<Executed<Answer>>) {
    let handle: string | undefined;
    const executed = await command((events) => (handle = events.at(-1)?.data.handle));
    if (handle !== undefined && !executed.duplicate && (executed.answer as Accepted).position !== undefined) written(userId, handle);
    return executed;
  }

  return {
    /**
     * POST /api/me/registration (the apps call it after every sign-in; the query side when it meets a
     * subject it does not know): records the caller's first request, and gives a member who has no
     * handle yet one: the one they chose in the realm when it is valid and free, else one made from
     * their name (base, base1… base9, then a random suffix). Answers the position of their record as it
     * stands when nothing changed, so a caller that lost a race to register still knows what to wait for.
     */
    registerUser: (who: Identity, meta: CommandMeta) =>
      recording(who.userId, (decided) =>
        handleMany(
          { who, meta },
          {
            read: async (reader) => {
              const user = await reader.read(userStreamOf(who.userId));
              if (user.state.status !== 'registered' || user.state.handle !== null) return { user, claim: null };
              const chosen = who.handle !== undefined && isValidHandle(who.handle) ? who.handle : undefined;
              const random = randomHandles(user.state.name, randomInt);
              const claim = (await firstFree(reader, who.userId, handleCandidates(user.state.name, chosen))) ?? (await firstFree(reader, who.userId, random));
              if (!claim) throw new Conflict('No free handle was found: try again');
              return { user, claim: { ...claim, source: claim.handle === chosen ? ('registration' as const) : ('derived' as const) } };
            },
            decide: ({ user, claim }) => {
              if (!claim) return (decided([]), []);
              const { handle, source, read } = claim;
              const decision = decide({ type: 'GiveHandle', data: { userId: who.userId, handle, source, user: user.state, claimed: read.state } }, meta);
              decided(decision.user);
              return changesOf(user, read, null, decision);
            },
            answer: (result, { user }): Accepted => ({ id: who.userId, position: result ? positionOf(result) : positionToken(user.position!) }),
          },
        ),
      ),

    /**
     * PATCH /api/me: the caller's display name, photo and handle (409 HANDLE_TAKEN when another
     * member, erased or not, has it; the old one is released).
     */
    updateProfile: (who: Identity, input: { displayName?: string; photoURL?: string; handle?: string }, meta: CommandMeta, idempotency?: Idempotency) =>
      recording(who.userId, (decided) =>
        handleMany(
          { who, meta, idempotency, cost: cost('profile', who.userId), refusedWhileSuspended: true },
          {
            read: async (reader) => {
              const user = await reader.read(userStreamOf(who.userId));
              const current = user.state.status === 'registered' ? user.state.handle : null;
              if (input.handle === undefined || input.handle === current) return { user, claimed: null, released: null };
              const claimed = await reader.read(handleStreamOf(input.handle));
              const released = current === null || handleStreamOf(current).id === claimed.streamId ? null : await reader.read(handleStreamOf(current));
              return { user, claimed, released };
            },
            decide: ({ user, claimed, released }) => {
              const { handle, ...profile } = input;
              const profileEvents =
                profile.displayName !== undefined || profile.photoURL !== undefined
                  ? decideUser({ type: 'UpdateProfile', data: profile }, user.state, meta)
                  : [];
              const decision =
                handle === undefined || !claimed
                  ? { user: [], claimed: [], released: [] }
                  : decide({ type: 'ChangeHandle', data: { userId: who.userId, handle, user: user.state, claimed: claimed.state } }, meta);
              decided(decision.user);
              return [{ to: user, events: profileEvents }, ...changesOf(user, claimed, released, decision)];
            },
            answer: (result) => acceptedAs(who.userId)(result),
          },
        ),
      ),
  };
}
