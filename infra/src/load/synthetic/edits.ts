import { decideComment, decidePost, type CommandMeta } from '@forum/command-service';
import { EDIT_GRACE_SECONDS, isStaffRole } from '@forum/contracts';
import { mentioning } from './handles.ts';
import { addComment, COMMENTS_MENTIONING, postByAnyone, POSTS_MENTIONING } from './posts.ts';
import { decided, registeredState, type Comment, type Post, type SimulatedForum, type SyntheticEvent, type User } from './simulated-forum.ts';

/*
 * Edits of posts and comments (docs/product.md, Editing), decided by the forum's deciders on the
 * streams the simulated forum keeps: mostly their authors' (now and then edited again within the
 * grace period, folding into the revision, or after it, making the next), else an admin's with a
 * reason (also of what an erased member left). Now and then a member fixes what they have just
 * written, which folds into its first revision. An edit's new text @mentions a member as often as a new one does.
 */

const isStaff = (user: User) => isStaffRole(registeredState(user)?.role ?? 'user');

/** Who edits `author`'s post or comment: the author mostly (while they have an account), else an admin; null when neither may. */
function editorOf(forum: SimulatedForum, author: User): User | null {
  if (registeredState(author) && forum.random.rand() < 0.85) return author;
  return forum.admins.length > 0 ? forum.random.pick(forum.admins) : null;
}

/** The reason of an edit by `editor`: an admin's of someone else's always, an author's now and then. */
function reasonOf(forum: SimulatedForum, editor: User, author: User): string | undefined {
  const { rand, sentence } = forum.random;
  return editor !== author || rand() < 0.2 ? sentence(2, 8) : undefined;
}

/** `editor` edits `post`: its title, its description or its tags (at least one of them changes). */
function editPost(forum: SimulatedForum, post: Post, editor: User): SyntheticEvent[] | null {
  const { int, pick, rand, sentence } = forum.random;
  const meta = forum.meta(editor.id);
  const roll = rand();
  const live = [...forum.tags.state.byName.values()];
  const tags = roll >= 0.9 && live.length > 0 ? Array.from({ length: 1 + int(3) }, () => pick(live).name) : undefined;
  const fields = {
    ...((roll < 0.3 || (roll >= 0.8 && roll < 0.9)) && { title: sentence(3, 12) }),
    ...(roll >= 0.3 && tags === undefined && { description: mentioning(forum, sentence(15, 90) + '.', POSTS_MENTIONING) }),
    ...(tags && { tags }),
  };
  const reason = reasonOf(forum, editor, post.author);
  const editing = { postId: post.id, editor: { id: editor.id, isStaff: isStaff(editor) }, ...fields, ...(reason !== undefined && { reason }) };
  return forum.write(meta, [
    decided(post.stream, decidePost({ type: 'EditPost', data: { ...editing, knownTags: forum.tags.state } }, post.stream.state, meta)),
  ]);
}

/** `editor` gives `comment` a new text. */
function editComment(forum: SimulatedForum, comment: Comment, editor: User): SyntheticEvent[] | null {
  const meta: CommandMeta = forum.meta(editor.id);
  const reason = reasonOf(forum, editor, comment.author);
  const editing = {
    commentId: comment.id,
    editor: { id: editor.id, isStaff: isStaff(editor) },
    text: mentioning(forum, forum.random.sentence(3, 45), COMMENTS_MENTIONING, comment.post),
    ...(reason !== undefined && { reason }),
    post: comment.post.stream.state,
  };
  return forum.write(meta, [decided(comment.stream, decideComment({ type: 'EditComment', data: editing }, comment.stream.state, meta))]);
}

/** A live post, or a live comment under a live post, to edit; undefined when there is none. */
function target(forum: SimulatedForum): { post: Post } | { comment: Comment } | undefined {
  const { pick, rand } = forum.random;
  const left = forum.leftByErased.filter((post) => post.slot >= 0);
  if (left.length > 0 && rand() < 0.05) return { post: pick(left) };
  if (rand() < 0.4) {
    const post = forum.livePost();
    return post && { post };
  }
  for (let tries = 0; tries < 20 && forum.liveComments.length > 0; tries++) {
    const comment = pick(forum.liveComments);
    if (comment.post.slot >= 0) return { comment };
  }
  return undefined;
}

/** One edit, and now and then the same editor's second one a little later: within the grace period or past it. */
export function edit(forum: SimulatedForum): SyntheticEvent[] | null {
  const { int, rand } = forum.random;
  const fresh = rand() < 0.15;
  const written = fresh ? (rand() < 0.5 ? postByAnyone(forum) : addComment(forum)) : null;
  const chosen = written
    ? written.some((e) => e.type === 'PostCreated')
      ? { post: forum.posts.at(-1)! }
      : { comment: forum.comments.at(-1)! }
    : target(forum);
  if (!chosen) return written;
  const author = 'post' in chosen ? chosen.post.author : chosen.comment.author;
  const editor = editorOf(forum, author);
  if (!editor) return written;
  const once = () => ('post' in chosen ? editPost(forum, chosen.post, editor) : editComment(forum, chosen.comment, editor));
  // a member fixing what they have just written does so within seconds
  if (written) forum.later(1 + int(60));
  const first = once() ?? [];
  let second: SyntheticEvent[] = [];
  if (editor === author && rand() < 0.4) {
    forum.later(rand() < 0.6 ? 1 + int(EDIT_GRACE_SECONDS - 1) : EDIT_GRACE_SECONDS + 1 + int(3600));
    second = once() ?? [];
  }
  const out = [...(written ?? []), ...first, ...second];
  return out.length > 0 ? out : null;
}
