import { eventDefinitions, TAGS_STREAM, userStream, type TagEvent } from '@forum/contracts';
import type { EventStore } from '@forum/eventstore';
import { createMemoryEventStore } from '@forum/eventstore/memory';
import { anyString, testEventMetadata, uuidOf } from '@forum/platform/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { requireAdmin, type Identity } from './actor.ts';
import { acceptedAs, createCommandHandler, type CommandHandler } from './command-handler.ts';
import { AccountClosed, Forbidden } from './errors.ts';
import { decide as decideTag } from './tag/decide.ts';
import { tagsStreamOf } from './tag/tag.ts';
import { testCommandMeta } from './testing.ts';
import { decide as decideUser } from './user/decide.ts';
import { userStreamOf } from './user/user.ts';

const ann: Identity = { userId: uuidOf(1), email: 'ann@forum.local', emailVerified: true, name: 'Ann', photoURL: '' };
const meta = testCommandMeta({ actorId: ann.userId });

let store: EventStore;
let handler: CommandHandler;
beforeEach(() => {
  store = createMemoryEventStore();
  handler = createCommandHandler(store, ['ann@forum.local']);
});

const eventsOf = async (streamId: string) => (await store.readStream(streamId)).events.map(({ type, streamVersion }) => ({ type, streamVersion }));

const tagCreated = (tagId: string, name: string): TagEvent => ({ type: 'TagCreated', data: { tagId, name, createdAt: meta.now.toISOString() } });
const appendTag = (tag: TagEvent, expectedVersion: number | 'no_stream') =>
  store.append([
    {
      streamId: TAGS_STREAM,
      expectedVersion,
      events: [{ type: tag.type, data: tag.data, metadata: testEventMetadata({ schemaVersion: eventDefinitions[tag.type].schemaVersion }) }],
    },
  ]);

describe('the command handler', () => {
  it("registers a member's first call in the same append as the command's events, before them on the member's own stream", async () => {
    const { handle } = handler;
    const done = await handle(
      { who: ann, meta },
      {
        stream: userStreamOf(ann.userId),
        decide: (user) => decideUser({ type: 'UpdateProfile', data: { displayName: 'Annie' } }, user, meta),
        answer: acceptedAs(ann.userId),
      },
    );
    const events = await eventsOf(userStream(ann.userId));
    // the listed, verified address makes her admin at registration
    expect(events.map(({ type, streamVersion }) => [type, streamVersion])).toEqual([
      ['UserRegistered', 1],
      ['AdminRoleGranted', 2],
      ['ProfileUpdated', 3],
    ]);
    expect(done).toEqual({ answer: { id: ann.userId, position: anyString }, duplicate: false });
  });

  it("gives the decider the member's record, and appends their registration even when the command appends nothing else", async () => {
    const { handle } = handler;
    const bob: Identity = { userId: uuidOf(2), email: 'bob@forum.local', name: 'Bob', photoURL: '' };
    await expect(
      handle(
        { who: bob, meta },
        {
          stream: tagsStreamOf(),
          decide: (tags, { actor }) => (requireAdmin(actor), decideTag({ type: 'CreateTag', data: { tagId: uuidOf(3), name: 'x' } }, tags, meta)),
          answer: acceptedAs('x'),
        },
      ),
    ).rejects.toBeInstanceOf(Forbidden);
    expect(await eventsOf(TAGS_STREAM)).toEqual([]);
    expect(await eventsOf(userStream(bob.userId))).toEqual([]);
    await handle({ who: bob, meta }, { stream: tagsStreamOf(), decide: () => [], answer: acceptedAs('x') });
    expect((await eventsOf(userStream(bob.userId))).map(({ type }) => type)).toEqual(['UserRegistered']);
  });

  it('refuses a closed account before anything is decided', async () => {
    const { handle } = handler;
    await handle(
      { meta },
      {
        stream: userStreamOf(ann.userId),
        decide: (user) => decideUser({ type: 'SetAccountAccess', data: { userId: ann.userId, enabled: false } }, user, meta),
        answer: acceptedAs(ann.userId),
      },
    );
    let decided = false;
    await expect(handle({ who: ann, meta }, { stream: tagsStreamOf(), decide: () => ((decided = true), []), answer: acceptedAs('x') })).rejects.toBeInstanceOf(
      AccountClosed,
    );
    expect(decided).toBe(false);
  });

  it('reads and decides again when another writer appended to a stream after it was read', async () => {
    const { handleMany } = handler;
    const decidedOn: number[] = [];
    const done = await handleMany(
      { meta },
      {
        read: async (reader) => {
          const tags = await reader.read(tagsStreamOf());
          // another admin adds 'React' between this command's read and its append, once
          if (decidedOn.length === 0) await appendTag(tagCreated(uuidOf(10), 'React'), tags.version === 0 ? 'no_stream' : tags.version);
          return tags;
        },
        decide: (tags) => {
          decidedOn.push(tags.state.byName.size);
          return [{ to: tags, events: decideTag({ type: 'CreateTag', data: { tagId: uuidOf(11), name: 'Vue' } }, tags.state, meta) }];
        },
        answer: acceptedAs(uuidOf(11)),
      },
    );
    expect(decidedOn).toEqual([0, 1]);
    expect((await store.readStream(TAGS_STREAM)).events.map((event) => (event.data as { name: string }).name)).toEqual(['React', 'Vue']);
    expect(done.answer.position).toEqual(anyString);
  });
});
