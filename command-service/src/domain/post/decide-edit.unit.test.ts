import { EDIT_GRACE_SECONDS, type PostEvent } from '@forum/contracts';
import { FIXED_NOW, uuidOf } from '@forum/platform/testing';
import { describe, expect, it } from 'vitest';
import { refuseClosedAccount } from '../actor.ts';
import { evolve as evolveTags, initialTagsState } from '../tag/tag.ts';
import { stateAfter, testCommandMeta } from '../testing.ts';
import { decide, type EditPost } from './decide.ts';
import { evolve, initialPostState, type PostState } from './post.ts';

const postId = uuidOf(10);
const created = Date.parse(FIXED_NOW);
/** A command's metadata `seconds` after the post was created. */
const after = (seconds: number) => testCommandMeta({ now: new Date(created + seconds * 1000) });
const iso = (seconds: number) => new Date(created + seconds * 1000).toISOString();
const knownTags = [
  { type: 'TagCreated' as const, data: { tagId: uuidOf(1), name: 'React', createdAt: FIXED_NOW } },
  { type: 'TagCreated' as const, data: { tagId: uuidOf(2), name: 'Node.js', createdAt: FIXED_NOW } },
].reduce(evolveTags, initialTagsState);
const alice = { id: 'u-alice', isStaff: false };
const bob = { id: 'u-bob', isStaff: false };
const ada = { id: 'u-ada', isStaff: true };

const given = stateAfter(evolve, initialPostState);
const postCreated: PostEvent = {
  type: 'PostCreated',
  data: {
    postId,
    title: 'Helo',
    description: 'A typo',
    tags: ['React'],
    authorId: 'u-alice',
    authorName: 'Alice',
    authorEmail: 'alice@forum.local',
    authorPhoto: '',
    createdAt: FIXED_NOW,
  },
};
const edit = (editor: EditPost['data']['editor'], fields: Omit<EditPost['data'], 'postId' | 'editor' | 'knownTags'>): EditPost => ({
  type: 'EditPost',
  data: { postId, editor, knownTags, ...fields },
});
/** The events of edits made one after another on `state`, each `[seconds after creation, command]`. */
function edited(state: PostState, ...edits: [number, EditPost][]): PostEvent[] {
  const events: PostEvent[] = [];
  for (const [seconds, command] of edits) {
    const decided = decide(command, state, after(seconds));
    events.push(...decided);
    state = decided.reduce(evolve, state);
  }
  return events;
}

describe('given a post its author created', () => {
  const post = given([postCreated]);

  it('when the author fixes the title within the grace period, then PostEdited with every field after the edit, folded into revision 1', () => {
    expect(decide(edit(alice, { title: 'Hello' }), post, after(60))).toEqual([
      {
        type: 'PostEdited',
        data: { postId, authorId: 'u-alice', editorId: 'u-alice', title: 'Hello', description: 'A typo', tags: ['React'], revision: 1, editedAt: iso(60) },
      },
    ]);
  });

  it(`folds at ${EDIT_GRACE_SECONDS} s after the revision, makes revision 2 a second later`, () => {
    expect(decide(edit(alice, { title: 'Hello' }), post, after(EDIT_GRACE_SECONDS))).toMatchObject([{ data: { revision: 1 } }]);
    expect(decide(edit(alice, { title: 'Hello' }), post, after(EDIT_GRACE_SECONDS + 1))).toMatchObject([{ data: { revision: 2 } }]);
  });

  it("keeps an author's reason, which they may give or not", () => {
    expect(decide(edit(alice, { description: 'No typo', reason: 'Spelling' }), post, after(10))).toMatchObject([
      { data: { description: 'No typo', reason: 'Spelling', revision: 1 } },
    ]);
  });

  it('when the tags change, then they are existing tags spelled as the tag is, without repeats; an unknown one is 400 naming it', () => {
    expect(decide(edit(alice, { tags: ['node.js', 'NODE.JS', 'react'] }), post, after(10))).toMatchObject([{ data: { tags: ['Node.js', 'React'] } }]);
    expect(() => decide(edit(alice, { tags: ['react', 'cobol'] }), post, after(10))).toThrowError(
      expect.objectContaining({ kind: 'invalid', details: { tags: ['Unknown tag "cobol"'] } }),
    );
  });

  it('when the edit changes nothing (the same fields, the tags in another spelling), then no event', () => {
    expect(decide(edit(alice, { title: 'Helo', description: 'A typo', tags: ['react'] }), post, after(10))).toEqual([]);
    expect(decide(edit(alice, { title: 'Helo', reason: 'Nothing really' }), post, after(400))).toEqual([]);
  });

  it('when another member edits it, then 403 FORBIDDEN', () => {
    expect(() => decide(edit(bob, { title: 'Mine now', reason: 'Because' }), post, after(10))).toThrowError(
      expect.objectContaining({ kind: 'forbidden', code: 'FORBIDDEN' }),
    );
  });

  it('when staff edit it without a reason, then 422 EDIT_REASON_REQUIRED', () => {
    expect(() => decide(edit(ada, { title: 'Hello' }), post, after(10))).toThrowError(expect.objectContaining({ kind: 'rule', code: 'EDIT_REASON_REQUIRED' }));
  });

  it("when staff edit it with a reason, then a new revision with the reason, even within the author's grace period", () => {
    expect(decide(edit(ada, { title: 'Hello', reason: 'Fixed the title' }), post, after(10))).toEqual([
      {
        type: 'PostEdited',
        data: {
          postId,
          authorId: 'u-alice',
          editorId: 'u-ada',
          title: 'Hello',
          description: 'A typo',
          tags: ['React'],
          reason: 'Fixed the title',
          revision: 2,
          editedAt: iso(10),
        },
      },
    ]);
  });
});

describe('given a post edited within and after the grace period', () => {
  const post = given([postCreated]);

  it('counts the grace period from the revision’s first event: folded edits do not extend it', () => {
    const events = edited(
      post,
      [200, edit(alice, { title: 'Hello' })],
      [400, edit(alice, { title: 'Hello!' })],
      [600, edit(alice, { title: 'Hello!!' })],
      [701, edit(alice, { title: 'Hello!!!' })],
    );
    expect(events.map((e) => (e.type === 'PostEdited' ? e.data.revision : null))).toEqual([1, 2, 2, 3]);
  });

  it("does not fold the author's edit into staff's revision, nor staff's into the author's", () => {
    const events = edited(post, [60, edit(ada, { title: 'Hello', reason: 'Title' })], [90, edit(alice, { title: 'Hello there' })]);
    expect(events.map((e) => (e.type === 'PostEdited' ? e.data.revision : null))).toEqual([2, 3]);
  });
});

describe('given a post by staff', () => {
  const post = given([{ ...postCreated, data: { ...postCreated.data, authorId: 'u-ada' } }]);
  it('when they edit their own post, then it is an author’s edit: no reason needed, folded within the grace period', () => {
    expect(decide(edit(ada, { title: 'Hello' }), post, after(10))).toMatchObject([{ data: { editorId: 'u-ada', revision: 1 } }]);
  });
});

describe('given a post whose author was erased, their content kept', () => {
  // the post's stream reads as before: the erasure is on the author's own stream
  const post = given([postCreated]);
  it('when the author asks, then the command is refused before it is decided (their account is closed)', () => {
    expect(() => refuseClosedAccount({ status: 'erased' })).toThrowError(expect.objectContaining({ kind: 'account-closed' }));
  });
  it('when staff edit it, then a reason is still required, and with one a new revision by staff, naming the author', () => {
    expect(() => decide(edit(ada, { description: 'Removed a phone number' }), post, after(9000))).toThrowError(
      expect.objectContaining({ code: 'EDIT_REASON_REQUIRED' }),
    );
    expect(decide(edit(ada, { description: 'Removed a phone number', reason: 'Personal data' }), post, after(9000))).toMatchObject([
      { data: { authorId: 'u-alice', editorId: 'u-ada', reason: 'Personal data', revision: 2 } },
    ]);
  });
});

describe.each<[string, PostState]>([
  ['no post', initialPostState],
  ['a deleted post', given([postCreated, { type: 'PostDeleted', data: { postId, authorId: 'u-alice', deletedBy: 'u-alice', deletedAt: FIXED_NOW } }])],
])('given %s', (_, post) => {
  it('when its author or staff edit it, then 404 NOT_FOUND', () => {
    expect(() => decide(edit(alice, { title: 'Hello' }), post, after(10))).toThrowError(expect.objectContaining({ kind: 'not-found' }));
    expect(() => decide(edit(ada, { title: 'Hello', reason: 'Why' }), post, after(10))).toThrowError(expect.objectContaining({ kind: 'not-found' }));
  });
});
