import { eventDefinitions, positionToken, type ForumEvent, type UserEvent } from '@forum/contracts';
import type { AppendResult, EventStore, StreamAppend } from '@forum/eventstore';
import { activeTraceparent } from '@forum/platform';
import { refuseClosedAccount, refuseSuspended, registered, type Identity, type RegisteredUser } from './actor.ts';
import { eventMetadata, type CommandMeta } from './command.ts';
import { execute, type Executed, type Idempotency } from './execute.ts';
import { load, loadAssumingNew } from './folded-streams.ts';
import type { Cost } from './limits.ts';
import type { Read, Stream } from './stream.ts';
import { decide as decideUser, type UserCommand } from './user/decide.ts';
import { userStreamOf, type UserState } from './user/user.ts';

/** What a command answers: the id it concerns and its last event's position (absent when nothing changed). */
export interface Accepted {
  readonly id?: string;
  readonly position?: string;
}

export const positionOf = (result: AppendResult) => positionToken(result.lastPosition);

/** The answer of a command about `id`: its last event's position, or none when it appended nothing. */
export const acceptedAs =
  (id: string) =>
  (result: AppendResult | null): Accepted => ({ id, ...(result && { position: positionOf(result) }) });

/**
 * How a command is called: the metadata its events carry, the caller's idempotency key, what its
 * write costs (a write limit), and `who`, the acting member (absent: the system, an operator, a visitor).
 */
interface Call {
  readonly meta: CommandMeta;
  readonly who?: Identity;
  readonly idempotency?: Idempotency | undefined;
  readonly cost?: Cost | undefined;
  /** A write a suspended member may not make (their posts, comments, votes, reports, profile): 403 MEMBER_SUSPENDED before anything is decided. */
  readonly refusedWhileSuspended?: true;
}

/** The actor a command decides with: the member's forum record when the call names one. */
type ActorOf<C extends Call> = C extends { readonly who: Identity } ? RegisteredUser : undefined;

/** Events a command decided for a stream it read (appended at the version it was read at). */
export interface Change {
  readonly to: Read<unknown>;
  readonly events: readonly ForumEvent[];
}

/** A stream of whatever state and events (each `Stream<State, Event>` is one). */
type AnyStream = Pick<Stream<unknown, never>, 'id' | 'initialState'> & { readonly evolve: (...args: never) => unknown };
type Streams = Readonly<Record<string, AnyStream>>;
type StatesOf<S extends Streams> = { readonly [K in keyof S]: S[K] extends { readonly initialState: infer State } ? State : never };
type ReadsOf<S extends Streams> = { readonly [K in keyof S]: Read<StatesOf<S>[K]> };

/** What one attempt of a command reads with: the store's streams, the actor's own as the handler read it. */
export interface Reader {
  read<State, Event>(stream: Stream<State, Event>): Promise<Read<State>>;
  /** A stream this request names with a random id of its own (a new post): the first attempt takes it as new without reading it. */
  readNew<State, Event>(stream: Stream<State, Event>): Promise<Read<State>>;
  /** Several streams at once, by name. */
  all<S extends Streams>(streams: S): Promise<ReadsOf<S>>;
  /** The acting member (for a read that depends on who acts); it refuses when the call names no one. */
  actor(): Promise<RegisteredUser>;
}

/** A command on one stream: Emmett's CommandHandler (read the stream, decide, append at the version read), with the streams it only reads. */
interface OneStreamCommand<C extends Call, State, Event extends ForumEvent, Given extends Streams, Answer> {
  readonly stream: Stream<State, Event>;
  /** The stream is named by this request with a random id of its own (see `Reader.readNew`). */
  readonly isNew?: boolean;
  /** Streams the decision reads but does not append to, read beside it. */
  readonly given?: Given;
  /** Pure: the stream's state (and the given streams' states, and the actor) → its new events, or a domain error. */
  readonly decide: (state: State, context: StatesOf<Given> & { readonly actor: ActorOf<C> }) => readonly Event[];
  readonly answer: (result: AppendResult | null, decided: { readonly read: Read<State>; readonly events: readonly Event[] }) => Answer;
}

/** A command that reads what it needs (some of it found through others) and decides on several streams at once. */
interface ManyStreamCommand<C extends Call, Reads, Answer> {
  readonly read: (reader: Reader) => Promise<Reads>;
  /** Pure: what was read (and the actor) → the changes of the streams read, or a domain error. */
  readonly decide: (reads: Reads, actor: ActorOf<C>) => readonly Change[];
  readonly answer: (result: AppendResult | null, reads: Reads, changes: readonly Change[]) => Answer;
}

/** The actor's own stream as read, with what the forum records of their arrival (registration, admin by email) folded in. */
interface ActorRead extends Read<UserState> {
  readonly registration: readonly UserEvent[];
}

/**
 * The generic command handler, after Emmett's `CommandHandler`: for each attempt it reads the
 * streams a command names, lets the command's pure decider decide on their states, and appends the
 * events with the versions it read as the expected versions, all streams in one atomic append
 * (`execute`: retried on a version conflict, replayed for a used idempotency key, the write's cost
 * taken once). A command is then its decider and a line of wiring:
 *
 *     createTag: (input, meta) => handle({ meta }, { stream: tagsStreamOf(), decide: (tags) => decideTag({ type: 'CreateTag', data: input }, tags, meta), answer: acceptedAs(input.tagId) })
 *
 * A call that names a member (`who`) reads the member's own stream first: a disabled or erased
 * account is refused before anything is decided; a subject the forum has not seen yet is
 * registered, and a listed address (ADMIN_EMAILS) the token now vouches for is made admin, in the
 * same append as the command's own events; a suspended member's write (`refusedWhileSuspended`) is
 * refused then; the decider gets the member's record as `actor`. A
 * command that reads or decides on the member's own stream gets that read (registration folded in).
 */
export function createCommandHandler(store: EventStore, adminEmailList: readonly string[]) {
  const adminEmails: ReadonlySet<string> = new Set(adminEmailList);

  async function readActor(who: Identity, meta: CommandMeta): Promise<ActorRead> {
    const read = await load(store, userStreamOf(who.userId));
    refuseClosedAccount(read.state);
    const arrival: UserCommand =
      read.state.status === 'unknown'
        ? { type: 'RegisterUser', data: { ...who, adminEmails } }
        : { type: 'GrantAdminByEmail', data: { email: who.email, emailVerified: who.emailVerified ?? false, adminEmails } };
    const registration = decideUser(arrival, read.state, meta);
    return { ...read, state: registration.reduce(userStreamOf(who.userId).evolve, read.state), registration };
  }

  /** One attempt's reader: the actor's own stream is the one `readActor` read. */
  function readerOf(attempt: number, actor: { readonly streamId: string; readonly read: Promise<ActorRead> } | undefined): Reader {
    const reader: Reader = {
      // the actor's stream is a user's: its state is a UserState, as the stream read says
      read: <State, Event>(stream: Stream<State, Event>) =>
        stream.id === actor?.streamId ? (actor.read as Promise<Read<unknown>> as Promise<Read<State>>) : load(store, stream),
      readNew: (stream) => loadAssumingNew(attempt, store, stream),
      all: async (streams) =>
        Object.fromEntries(
          await Promise.all(Object.entries(streams).map(async ([name, stream]) => [name, await reader.read(stream as Stream<unknown, unknown>)])),
        ) as never,
      actor: async () => {
        if (!actor) throw new Error('the call names no actor');
        return registered((await actor.read).state);
      },
    };
    return reader;
  }

  function many<C extends Call, Reads, Answer>(call: C, command: ManyStreamCommand<C, Reads, Answer>): Promise<Executed<Answer>> {
    return execute(
      store,
      async (attempt) => {
        const actor = call.who && { streamId: userStreamOf(call.who.userId).id, read: readActor(call.who, call.meta) };
        const [actorRead, reads] = await Promise.all([actor?.read, command.read(readerOf(attempt, actor))]);
        if (actorRead && call.refusedWhileSuspended) refuseSuspended(actorRead.state, call.meta.now);
        const changes = command.decide(reads, (actorRead && registered(actorRead.state)) as ActorOf<C>);
        return { appends: appendsOf(changes, actorRead, call.meta), answer: (result) => command.answer(result, reads, changes) };
      },
      call.idempotency,
      call.cost,
    );
  }

  function one<C extends Call, State, Event extends ForumEvent, Given extends Streams = Record<never, never>, Answer = Accepted>(
    call: C,
    command: OneStreamCommand<C, State, Event, Given, Answer>,
  ): Promise<Executed<Answer>> {
    return many(call, {
      read: async (reader) => {
        const [read, given] = await Promise.all([
          command.isNew ? reader.readNew(command.stream) : reader.read(command.stream),
          reader.all(command.given ?? ({} as Given)),
        ]);
        return { read, given };
      },
      decide: ({ read, given }, actor) => [{ to: read, events: command.decide(read.state, { ...statesOf(given), actor }) }],
      answer: (result, { read }, [change]) => command.answer(result, { read, events: change!.events as readonly Event[] }),
    });
  }

  return {
    /** A command on one stream (OneStreamCommand). */
    handle: one,
    /** A command on several streams (ManyStreamCommand). */
    handleMany: many,
    /** A stream's state now (a read that appends nothing). */
    stateOf: async <State, Event>(stream: Stream<State, Event>): Promise<State> => (await load(store, stream)).state,
  };
}

export type CommandHandler = ReturnType<typeof createCommandHandler>;

const statesOf = <S extends Streams>(reads: ReadsOf<S>): StatesOf<S> =>
  Object.fromEntries(Object.entries(reads as Readonly<Record<string, Read<unknown>>>).map(([name, read]) => [name, read.state])) as StatesOf<S>;

const expectedVersionOf = (version: number) => (version === 0 ? ('no_stream' as const) : version);

/**
 * The changes as one append: each stream's events at the version it was read at, the actor's
 * registration first on theirs (also when the command changes nothing else there); streams without
 * events are left out.
 */
function appendsOf(changes: readonly Change[], actor: ActorRead | undefined, meta: CommandMeta): StreamAppend[] {
  // the command's span (see tracedCommands), which the projections' and the change stream's spans join
  const traceparent = activeTraceparent();
  const byStream = new Map<string, { version: number; events: ForumEvent[] }>();
  if (actor) byStream.set(actor.streamId, { version: actor.version, events: [...actor.registration] });
  for (const { to, events } of changes) {
    const kept = byStream.get(to.streamId);
    if (kept) kept.events.push(...events);
    else byStream.set(to.streamId, { version: to.version, events: [...events] });
  }
  return [...byStream]
    .filter(([, { events }]) => events.length > 0)
    .map(([streamId, { version, events }]) => ({
      streamId,
      expectedVersion: expectedVersionOf(version),
      events: events.map((event) => ({
        type: event.type,
        data: event.data,
        metadata: eventMetadata(meta, eventDefinitions[event.type].schemaVersion, traceparent),
      })),
    }));
}
