import type { ModeratedKind, SuspensionPeriod } from '@forum/contracts';
import { actingOf, requireAdmin, requireStaff, roleOf, type Identity } from '../actor.ts';
import { commentStreamOf } from '../comment/comment.ts';
import { acceptedAs, type Accepted, type CommandHandler, type Reader } from '../command-handler.ts';
import type { CommandMeta } from '../command.ts';
import type { Executed, Idempotency } from '../execute.ts';
import { initialPostState, postStreamOf, type PostState } from '../post/post.ts';
import { userStreamOf } from '../user/user.ts';
import { decideCommentModeration, decidePostModeration } from './content.ts';
import { decide as decideMember, type AboutItem } from './member.ts';
import { decidePins, pinsStreamOf } from './pins.ts';

/** Told after a member's moderator role was recorded (`true`: granted), to keep the identity provider's copy. */
export type RoleWritten = (userId: string, moderator: boolean) => void;

/** A post's or comment's id and kind, as the staff calls name it. */
export interface ItemRef {
  readonly kind: ModeratedKind;
  readonly id: string;
}

/**
 * Staff's commands (issue #43, docs/moderation.md): the moderator role (admins), suspensions,
 * hiding, locking, pinning and dismissing reports (staff). Each decides on the actor's role as its
 * own stream gives it, and on the role of whom it acts on (a moderator does not act on staff).
 */
export function createModerationCommands({ handle, handleMany }: CommandHandler, roleWritten: RoleWritten = () => {}) {
  /** The role of a post's or comment's author now (a member for none). */
  const authorRole = async (reader: Reader, authorId: string | null) =>
    authorId === null ? 'user' : roleOf((await reader.read(userStreamOf(authorId))).state);

  const role = async (who: Identity, userId: string, moderator: boolean, meta: CommandMeta, idempotency?: Idempotency) => {
    const executed = await handle(
      { who, meta, idempotency },
      {
        stream: userStreamOf(userId),
        decide: (user, { actor }) => (
          requireAdmin(actor),
          decideMember({ type: moderator ? 'GrantModerator' : 'RevokeModerator', data: { actorId: actor.userId } }, user, meta)
        ),
        answer: acceptedAs(userId),
      },
    );
    if (!executed.duplicate && executed.answer.position !== undefined) roleWritten(userId, moderator);
    return executed;
  };

  /** Reads the item a suspension is about (the member's post or comment). */
  const aboutOf = async (reader: Reader, about: ItemRef | undefined): Promise<AboutItem | undefined> => {
    if (about === undefined) return undefined;
    return about.kind === 'post'
      ? { kind: 'post', id: about.id, post: (await reader.read(postStreamOf(about.id))).state }
      : { kind: 'comment', id: about.id, comment: (await reader.read(commentStreamOf(about.id))).state };
  };

  /** A comment, its post and its author's role, for a decision on the comment. */
  const commentRead = async (reader: Reader, commentId: string) => {
    const comment = await reader.read(commentStreamOf(commentId));
    const known = comment.state.status === 'none' ? null : comment.state;
    const [post, authorRoleNow] = await Promise.all([
      known === null ? initialPostState : reader.read(postStreamOf(known.postId)).then((read) => read.state),
      authorRole(reader, known?.authorId ?? null),
    ]);
    return { comment, post, authorRole: authorRoleNow };
  };

  const hideComment = (who: Identity, commentId: string, reason: string | null, meta: CommandMeta, idempotency?: Idempotency) =>
    handleMany(
      { who, meta, idempotency },
      {
        read: (reader) => commentRead(reader, commentId),
        decide: ({ comment, post, authorRole }, actor) => {
          requireStaff(actor);
          const data = { commentId, actor: actingOf(actor), authorRole, post };
          const command = reason === null ? { type: 'UnhideComment' as const, data } : { type: 'HideComment' as const, data: { ...data, reason } };
          return [{ to: comment, events: decideCommentModeration(command, comment.state, meta) }];
        },
        answer: acceptedAs(commentId),
      },
    );

  const hidePost = (who: Identity, postId: string, reason: string | null, meta: CommandMeta, idempotency?: Idempotency) =>
    handleMany(
      { who, meta, idempotency },
      {
        read: async (reader) => {
          const post = await reader.read(postStreamOf(postId));
          return { post, authorRole: await authorRole(reader, post.state.status === 'none' ? null : post.state.authorId) };
        },
        decide: ({ post, authorRole }, actor) => {
          requireStaff(actor);
          const data = { postId, actor: actingOf(actor), authorRole };
          const command = reason === null ? { type: 'UnhidePost' as const, data } : { type: 'HidePost' as const, data: { ...data, reason } };
          return [{ to: post, events: decidePostModeration(command, post.state, meta) }];
        },
        answer: acceptedAs(postId),
      },
    );

  const lockPost = (who: Identity, postId: string, lock: { reason?: string } | null, meta: CommandMeta, idempotency?: Idempotency) =>
    handle(
      { who, meta, idempotency },
      {
        stream: postStreamOf(postId),
        decide: (post, { actor }) => {
          requireStaff(actor);
          const data = { postId, actor: actingOf(actor) };
          return decidePostModeration(lock === null ? { type: 'UnlockPost', data } : { type: 'LockPost', data: { ...data, ...lock } }, post, meta);
        },
        answer: acceptedAs(postId),
      },
    );

  const pinPost = (who: Identity, postId: string, pin: boolean, meta: CommandMeta, idempotency?: Idempotency) =>
    handleMany(
      { who, meta, idempotency },
      {
        read: async (reader) => {
          const [pins, post] = await Promise.all([reader.read(pinsStreamOf()), reader.read(postStreamOf(postId)).then((read) => read.state)]);
          const others = pin ? pins.state.pinned.filter((id) => id !== postId) : [];
          const states = await Promise.all(others.map(async (id) => [id, (await reader.read(postStreamOf(id))).state] as const));
          return { pins, post, pinnedPosts: new Map<string, PostState>(states) };
        },
        decide: ({ pins, post, pinnedPosts }, actor) => {
          requireStaff(actor);
          const data = { postId, actorId: actor.userId, post };
          return [{ to: pins, events: decidePins(pin ? { type: 'PinPost', data: { ...data, pinnedPosts } } : { type: 'UnpinPost', data }, pins.state, meta) }];
        },
        answer: acceptedAs(postId),
      },
    );

  return {
    /** PUT /api/admin/users/:userId/moderator (admin). */
    grantModerator: (who: Identity, userId: string, meta: CommandMeta, idempotency?: Idempotency) => role(who, userId, true, meta, idempotency),
    /** DELETE /api/admin/users/:userId/moderator (admin). */
    revokeModerator: (who: Identity, userId: string, meta: CommandMeta, idempotency?: Idempotency) => role(who, userId, false, meta, idempotency),

    /** POST /api/admin/users/:userId/suspend (staff). */
    suspendMember: (
      who: Identity,
      input: { userId: string; reason: string; period: SuspensionPeriod; until?: string; about?: ItemRef },
      meta: CommandMeta,
      idempotency?: Idempotency,
    ): Promise<Executed<Accepted>> => {
      const { userId, about, ...suspension } = input;
      return handleMany(
        { who, meta, idempotency },
        {
          read: async (reader) => {
            const [member, item] = await Promise.all([reader.read(userStreamOf(userId)), aboutOf(reader, about)]);
            return { member, item };
          },
          decide: ({ member, item }, actor) => {
            requireStaff(actor);
            const data = { ...suspension, actor: actingOf(actor), ...(item && { about: item }) };
            return [{ to: member, events: decideMember({ type: 'SuspendMember', data }, member.state, meta) }];
          },
          answer: acceptedAs(userId),
        },
      );
    },

    /** DELETE /api/admin/users/:userId/suspend (staff). */
    liftSuspension: (who: Identity, userId: string, meta: CommandMeta, idempotency?: Idempotency) =>
      handle(
        { who, meta, idempotency },
        {
          stream: userStreamOf(userId),
          decide: (member, { actor }) => (requireStaff(actor), decideMember({ type: 'LiftSuspension', data: { actor: actingOf(actor) } }, member, meta)),
          answer: acceptedAs(userId),
        },
      ),

    /** PUT /api/admin/posts/:id/hide (staff). */
    hidePost: (who: Identity, input: { postId: string; reason: string }, meta: CommandMeta, idempotency?: Idempotency) =>
      hidePost(who, input.postId, input.reason, meta, idempotency),
    /** DELETE /api/admin/posts/:id/hide (staff). */
    unhidePost: (who: Identity, postId: string, meta: CommandMeta, idempotency?: Idempotency) => hidePost(who, postId, null, meta, idempotency),
    /** PUT /api/admin/comments/:commentId/hide (staff). */
    hideComment: (who: Identity, input: { commentId: string; reason: string }, meta: CommandMeta, idempotency?: Idempotency) =>
      hideComment(who, input.commentId, input.reason, meta, idempotency),
    /** DELETE /api/admin/comments/:commentId/hide (staff). */
    unhideComment: (who: Identity, commentId: string, meta: CommandMeta, idempotency?: Idempotency) => hideComment(who, commentId, null, meta, idempotency),

    /** PUT /api/admin/posts/:id/lock (staff). */
    lockPost: (who: Identity, input: { postId: string; reason?: string }, meta: CommandMeta, idempotency?: Idempotency) =>
      lockPost(who, input.postId, input.reason === undefined ? {} : { reason: input.reason }, meta, idempotency),
    /** DELETE /api/admin/posts/:id/lock (staff). */
    unlockPost: (who: Identity, postId: string, meta: CommandMeta, idempotency?: Idempotency) => lockPost(who, postId, null, meta, idempotency),

    /** PUT /api/admin/posts/:id/pin (staff). */
    pinPost: (who: Identity, postId: string, meta: CommandMeta, idempotency?: Idempotency) => pinPost(who, postId, true, meta, idempotency),
    /** DELETE /api/admin/posts/:id/pin (staff). */
    unpinPost: (who: Identity, postId: string, meta: CommandMeta, idempotency?: Idempotency) => pinPost(who, postId, false, meta, idempotency),

    /** POST /api/admin/reports/:kind/:id/dismiss (staff). */
    dismissReports: (who: Identity, item: ItemRef, meta: CommandMeta, idempotency?: Idempotency) =>
      item.kind === 'post'
        ? handle(
            { who, meta, idempotency },
            {
              stream: postStreamOf(item.id),
              decide: (post, { actor }) => (
                requireStaff(actor),
                decidePostModeration({ type: 'DismissPostReports', data: { postId: item.id, actor: actingOf(actor) } }, post, meta)
              ),
              answer: acceptedAs(item.id),
            },
          )
        : handleMany(
            { who, meta, idempotency },
            {
              read: (reader) => commentRead(reader, item.id),
              decide: ({ comment, post }, actor) => {
                requireStaff(actor);
                const command = { type: 'DismissCommentReports' as const, data: { commentId: item.id, actor: actingOf(actor), post } };
                return [{ to: comment, events: decideCommentModeration(command, comment.state, meta) }];
              },
              answer: acceptedAs(item.id),
            },
          ),
  };
}
