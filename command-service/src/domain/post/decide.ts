import { ANONYMOUS_NAME, isStaffRole, type PostEvent, type Role } from '@forum/contracts';
import { refuseStaffTarget, type Acting } from '../staff.ts';
import { Conflict, Forbidden, InvalidInput, NotFound } from '../errors.ts';
import { unreachable, type CommandMeta } from '../command.ts';
import { editedRevision, type Editor } from '../revision.ts';
import { canonicalTag, type TagsState } from '../tag/tag.ts';
import type { PostState } from './post.ts';

/**
 * Rules enforced here (spec §3, §5; issue "whole forum on the API"):
 * - a post is created once under its id;
 * - its tags are existing tag names (spelled as the tag is), without repeats;
 * - author name, email and photo come from the caller's identity, time from the clock;
 * - a post is deleted by its author or staff (a moderator not a moderator's or an admin's: 403
 *   STAFF_PROTECTED), once;
 * - a live post is edited by its author or staff (staff editing someone else's give a
 *   reason), its tags by the same rule as creating; an edit that changes nothing appends nothing;
 *   an author's edit within the grace period of their own revision folds into it (revision.ts);
 * - a member erasing their account with their content takes their posts that are still there
 *   (ErasePost: the author's own, else nothing).
 */
export interface Author {
  readonly id: string;
  readonly name: string;
  readonly email: string;
  readonly photo: string;
}

export type CreatePost = {
  type: 'CreatePost';
  /** `knownTags`: the tags stream's state, which the requested `tags` must name. */
  data: { postId: string; title: string; description: string; tags: readonly string[]; author: Author; knownTags: TagsState };
};
/** `actor`: who deletes; `authorRole`: the post's author's role now (staff's posts are not a moderator's to delete). */
export type DeletePost = { type: 'DeletePost'; data: { postId: string; actor: Acting; authorRole: Role } };
/** `authorId`: the erased member; `actorId`: who erases them (themselves or an admin). */
export type ErasePost = { type: 'ErasePost'; data: { postId: string; authorId: string; actorId: string } };
/** Only the fields given change; `knownTags` as for CreatePost. */
export type EditPost = {
  type: 'EditPost';
  data: {
    postId: string;
    editor: Editor;
    title?: string;
    description?: string;
    tags?: readonly string[];
    reason?: string;
    knownTags: TagsState;
  };
};
export type PostCommand = CreatePost | DeletePost | EditPost | ErasePost;

export function decide(command: PostCommand, state: PostState, meta: CommandMeta): PostEvent[] {
  switch (command.type) {
    case 'CreatePost':
      return createPost(command, state, meta);
    case 'DeletePost':
      return deletePost(command, state, meta);
    case 'EditPost':
      return editPost(command, state, meta);
    case 'ErasePost':
      return erasePost(command, state, meta);
    default:
      return unreachable(command);
  }
}

function createPost(command: CreatePost, state: PostState, meta: CommandMeta): PostEvent[] {
  if (state.status !== 'none') throw new Conflict(`Post ${command.data.postId} already exists`);
  const tags = postTags(command.data.knownTags, command.data.tags);
  const { author } = command.data;
  return [
    {
      type: 'PostCreated',
      data: {
        postId: command.data.postId,
        title: command.data.title,
        description: command.data.description,
        tags,
        authorId: author.id,
        authorName: author.name.trim() || ANONYMOUS_NAME,
        authorEmail: author.email,
        authorPhoto: author.photo,
        createdAt: meta.now.toISOString(),
      },
    },
  ];
}

/** A post's tags: each an existing tag, spelled as the tag is, without repeats (else InvalidInput naming the unknown ones). */
function postTags(knownTags: TagsState, names: readonly string[]): string[] {
  const tags: string[] = [];
  const unknown: string[] = [];
  for (const name of names) {
    const tag = canonicalTag(knownTags, name);
    if (tag === null) unknown.push(name);
    else if (!tags.includes(tag)) tags.push(tag);
  }
  if (unknown.length > 0) throw new InvalidInput({ tags: unknown.map((name) => `Unknown tag "${name}"`) });
  return tags;
}

function editPost(command: EditPost, state: PostState, meta: CommandMeta): PostEvent[] {
  if (state.status !== 'created') throw new NotFound('No such post');
  const { postId, editor, reason } = command.data;
  const revision = editedRevision('post', state.authorId, state.revision, editor, reason, meta.now);
  const title = command.data.title ?? state.title;
  const description = command.data.description ?? state.description;
  const tags = command.data.tags === undefined ? [...state.tags] : postTags(command.data.knownTags, command.data.tags);
  const same = title === state.title && description === state.description && tags.length === state.tags.length && tags.every((tag, i) => tag === state.tags[i]);
  if (same) return [];
  return [
    {
      type: 'PostEdited',
      data: {
        postId,
        authorId: state.authorId,
        editorId: editor.id,
        title,
        description,
        tags,
        ...(reason !== undefined && { reason }),
        revision,
        editedAt: meta.now.toISOString(),
      },
    },
  ];
}

function deletePost(command: DeletePost, state: PostState, meta: CommandMeta): PostEvent[] {
  if (state.status !== 'created') throw new NotFound('No such post');
  const { postId, actor, authorRole } = command.data;
  if (state.authorId !== actor.id) {
    if (!isStaffRole(actor.role)) throw new Forbidden('Only the author or staff can delete this post');
    refuseStaffTarget(actor, { id: state.authorId, role: authorRole });
  }
  return [{ type: 'PostDeleted', data: { postId, authorId: state.authorId, deletedBy: actor.id, deletedAt: meta.now.toISOString() } }];
}

function erasePost(command: ErasePost, state: PostState, meta: CommandMeta): PostEvent[] {
  const { postId, authorId, actorId } = command.data;
  if (state.status !== 'created' || state.authorId !== authorId) return [];
  return [{ type: 'PostDeleted', data: { postId, authorId, deletedBy: actorId, deletedAt: meta.now.toISOString() } }];
}
