import { EventMetadata, eventDefinitions, FREE_POST_LIMIT, type CommentEdited, type PostEdited, type Vote } from '@forum/contracts';
import { version } from 'uuid';
import { describe, expect, it } from 'vitest';
import { syntheticLog, type SyntheticEvent } from './synthetic-log.ts';

const log = [...syntheticLog({ events: 20_000, seed: 42 })];
const count = (type: string) => log.filter((e) => e.type === type).length;
const data = <T = Record<string, string>>(e: SyntheticEvent) => e.data as T;

describe('a synthetic log of 20k events', () => {
  it('has at least the events asked for, and each is valid under its type’s current schema and metadata', () => {
    expect(log.length).toBeGreaterThanOrEqual(20_000);
    expect(log.length).toBeLessThan(20_010);
    for (const event of log) {
      const definition = eventDefinitions[event.type];
      const parsed = definition.schema.safeParse(event.data);
      if (!parsed.success) throw new Error(`${event.type} in ${event.streamId}: ${parsed.error.message}`);
      expect(EventMetadata.parse(event.metadata).schemaVersion).toBe(definition.schemaVersion);
      expect(Number.isNaN(Date.parse(event.recordedAt))).toBe(false);
    }
  });

  it('is the same log for the same seed and size, another for another seed', () => {
    expect([...syntheticLog({ events: 20_000, seed: 42 })]).toEqual(log);
    expect([...syntheticLog({ events: 20_000, seed: 43 })][5]).not.toEqual(log[5]);
  });

  it('has the realistic mix: half votes, a quarter comments, a tenth posts, a hundredth users and reports, some of everything else', () => {
    const share = (type: string) => count(type) / log.length;
    expect(share('VoteCast')).toBeGreaterThan(0.45);
    expect(share('VoteCast')).toBeLessThan(0.6);
    expect(share('CommentAdded')).toBeGreaterThan(0.22);
    expect(share('CommentAdded')).toBeLessThan(0.3);
    expect(share('PostCreated')).toBeGreaterThan(0.08);
    expect(share('PostCreated')).toBeLessThan(0.13);
    expect(share('UserRegistered')).toBeGreaterThan(0.007);
    expect(share('UserRegistered')).toBeLessThan(0.015);
    expect(share('CommentReported')).toBeGreaterThan(0.007);
    for (const type of Object.keys(eventDefinitions))
      if (type !== 'MembershipPurchaseFailed' && type !== 'WarningsRead') expect(count(type), type).toBeGreaterThan(0);
  });

  it('names what the command service names as it does (ids.ts): a UUIDv7 of the command’s time, so ids made later sort later', () => {
    const named = {
      TagCreated: 'tagId',
      PostCreated: 'postId',
      CommentAdded: 'commentId',
      UserWarned: 'warningId',
      AnnouncementPublished: 'announcementId',
      ContactMessageReceived: 'messageId',
      MembershipPurchaseStarted: 'attemptId',
    } as const;
    const ids: string[] = [];
    for (const event of log) {
      const field = named[event.type as keyof typeof named];
      if (!field) continue;
      const id = data(event)[field]!;
      expect(version(id), event.type).toBe(7);
      expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16), event.type).toBe(Date.parse(event.recordedAt));
      ids.push(id);
    }
    expect(ids.length).toBeGreaterThan(count('CommentAdded'));
    expect([...ids].sort()).toEqual(ids);
  });

  it('numbers every stream’s events 1, 2, 3, … in log order', () => {
    const versions = new Map<string, number>();
    for (const event of log) {
      expect(event.streamVersion, event.streamId).toBe((versions.get(event.streamId) ?? 0) + 1);
      versions.set(event.streamId, event.streamVersion);
    }
  });

  it('begins each user stream with UserRegistered, and no user acts before being registered in the same command or earlier', () => {
    const registered = new Set<string>();
    const firstOfStream = new Map<string, string>();
    const byCommand = new Map<string, SyntheticEvent[]>();
    for (const event of log) {
      if (event.streamId.startsWith('user-') && !firstOfStream.has(event.streamId)) firstOfStream.set(event.streamId, event.type);
      const events = byCommand.get(event.metadata.correlationId) ?? [];
      events.push(event);
      byCommand.set(event.metadata.correlationId, events);
    }
    expect(new Set(firstOfStream.values())).toEqual(new Set(['UserRegistered']));
    for (const events of byCommand.values()) {
      for (const e of events) if (e.type === 'UserRegistered') registered.add(data(e).userId!);
      const actor = events[0]!.metadata.actorId;
      if (actor !== 'anonymous' && !actor.startsWith('operator:')) expect(registered.has(actor), `${events[0]!.type} by ${actor}`).toBe(true);
    }
  });

  it('writes PostCreated with PostAuthored (free members) in one command, ordered by stream id as the store orders a multi-stream append', () => {
    const commands = new Map<string, SyntheticEvent[]>();
    for (const event of log) commands.set(event.metadata.correlationId, [...(commands.get(event.metadata.correlationId) ?? []), event]);
    let withAuthored = 0;
    for (const events of commands.values()) {
      const streams = events.map((e) => e.streamId);
      expect(streams).toEqual([...streams].sort());
      expect(new Set(events.map((e) => e.recordedAt)).size).toBe(1);
      const created = events.find((e) => e.type === 'PostCreated');
      const authored = events.find((e) => e.type === 'PostAuthored');
      if (authored) {
        expect(created).toBeDefined();
        expect(data(authored).postId).toBe(data(created!).postId);
        withAuthored++;
      }
    }
    expect(withAuthored).toBeGreaterThan(0);
  });

  it('keeps the command side’s rules: the free limit, vote transitions per stream, no activity on deleted posts, one report per reporter', () => {
    const live = new Map<string, Set<string>>(); // user -> live authored posts
    const members = new Set<string>();
    const deleted = new Set<string>();
    const votes = new Map<string, Vote>();
    const reports = new Set<string>();
    const postTags = new Set<string>();
    const liveTags = new Set<string>();
    for (const event of log) {
      const d = data(event);
      switch (event.type) {
        case 'TagCreated':
          liveTags.add(d.name!);
          break;
        case 'TagDeleted':
          liveTags.delete(d.name!);
          break;
        case 'MembershipPurchased':
          members.add(d.userId!);
          break;
        case 'PostCreated':
          for (const tag of data<{ tags: string[] }>(event).tags) {
            expect(liveTags.has(tag)).toBe(true);
            postTags.add(tag);
          }
          break;
        case 'PostAuthored': {
          expect(members.has(d.userId!)).toBe(false);
          const posts = live.get(d.userId!) ?? new Set();
          expect(posts.size).toBeLessThan(FREE_POST_LIMIT);
          posts.add(d.postId!);
          live.set(d.userId!, posts);
          break;
        }
        case 'AuthoredPostRemoved':
          expect(live.get(d.userId!)?.delete(d.postId!)).toBe(true);
          break;
        case 'PostDeleted':
          expect(deleted.has(d.postId!)).toBe(false);
          deleted.add(d.postId!);
          break;
        case 'VoteCast': {
          expect(deleted.has(d.postId!)).toBe(false);
          expect(event.streamId).toBe(`vote-${d.postId}-${d.userId}`);
          expect(d.previous).toBe(votes.get(event.streamId) ?? 'none');
          expect(d.vote).not.toBe(d.previous);
          votes.set(event.streamId, d.vote as Vote);
          break;
        }
        case 'CommentAdded':
          expect(deleted.has(d.postId!)).toBe(false);
          break;
        case 'CommentReported':
          expect(deleted.has(d.postId!)).toBe(false);
          expect(reports.has(event.streamId)).toBe(false);
          reports.add(event.streamId);
          break;
        default:
          break;
      }
    }
    expect([...votes.values()].some((v) => v === 'none')).toBe(true); // some votes were taken back
    expect(postTags.size).toBeGreaterThan(5);
  });

  it('writes ProfileUpdated in the shape of its current version', () => {
    const updates = log.filter((e) => e.type === 'ProfileUpdated');
    expect(updates.length).toBeGreaterThan(0);
    for (const update of updates) expect(update.metadata.schemaVersion).toBe(eventDefinitions.ProfileUpdated.schemaVersion);
  });

  it('writes edits of posts and comments: by authors, folded within the grace period (also into the first revision) or making the next; by admins, with a reason, also of what erased members left', () => {
    const erased = new Set(log.filter((e) => e.type === 'AccountErased').map((e) => data(e).userId));
    const revisions = new Map<string, number>();
    const seen = { posts: 0, comments: 0, foldedIntoFirst: 0, foldedLater: 0, authorsNext: 0, admins: 0, adminsWithoutReason: 0, ofErased: 0 };
    for (const event of log) {
      if (event.type !== 'PostEdited' && event.type !== 'CommentEdited') continue;
      const edit = data<PostEdited['data'] | CommentEdited['data']>(event);
      if (event.type === 'PostEdited') seen.posts++;
      else seen.comments++;
      const current = revisions.get(event.streamId) ?? 1;
      expect([current, current + 1], event.streamId).toContain(edit.revision);
      revisions.set(event.streamId, edit.revision);
      if (edit.editorId !== edit.authorId) {
        seen.admins++;
        if (edit.reason === undefined) seen.adminsWithoutReason++;
        if (erased.has(edit.authorId)) seen.ofErased++;
        expect(edit.revision).toBe(current + 1);
      } else if (edit.revision === current) {
        if (edit.revision === 1) seen.foldedIntoFirst++;
        else seen.foldedLater++;
      } else seen.authorsNext++;
    }
    expect(seen).toEqual({ ...seen, adminsWithoutReason: 0 });
    for (const [what, n] of Object.entries(seen)) if (what !== 'adminsWithoutReason') expect(n, what).toBeGreaterThan(0);
  });
});
