import {
  authorOf,
  decideAnnouncement,
  decideComment,
  decideContact,
  decideNotification,
  decidePost,
  decideUser,
  evolveAnnouncement,
  evolveComment,
  evolveContact,
  evolvePost,
  evolveUser,
  initialAnnouncementState,
  initialCommentState,
  initialContactMessageState,
  initialPostState,
  roleOf,
} from '@forum/command-service';
import { announcementStream, commentStream, contactMessageStream, isStaffRole, postStream } from '@forum/contracts';
import { mentioning } from './handles.ts';
import { arrival, listed } from './people.ts';
import { FIRST_NAMES, LAST_NAMES } from './randomness.ts';
import { decided, keptStream, registeredState, type Comment, type Post, type SimulatedForum, type SyntheticEvent, type User } from './simulated-forum.ts';

/*
 * What people write: posts (and their deletion), comments, announcements (and members reading
 * them) and contact messages, each decided by the forum's deciders on the streams the simulated forum keeps.
 */

/** The share of posts' descriptions and of comments that @mention a member. */
export const POSTS_MENTIONING = 0.04;
export const COMMENTS_MENTIONING = 0.06;

/** `author` creates a post (registering in the same append when it is their first request); null when the free limit refuses it. */
export function createPost(forum: SimulatedForum, author: User): SyntheticEvent[] | null {
  const { int, pick, sentence } = forum.random;
  const meta = forum.meta(author.id);
  const registration = registeredState(author) ? [] : arrival(forum, author, meta);
  const actor = registration.reduce(evolveUser, author.stream.state);
  if (actor.status !== 'registered') return null;
  const postId = forum.timeId();
  const live = [...forum.tags.state.byName.values()];
  const tags: string[] = [];
  for (let i = int(4); i > 0 && live.length > 0; i--) tags.push(pick(live).name);
  return forum.attempt(() => {
    const authored = decideUser({ type: 'AuthorPost', data: { postId } }, actor, meta);
    const post: Post = {
      n: forum.posts.length,
      id: postId,
      author,
      stream: keptStream(postStream(postId), initialPostState, evolvePost),
      slot: -1,
      votes: null,
      lastCommenter: null,
    };
    const created = decidePost(
      {
        type: 'CreatePost',
        data: {
          postId,
          title: sentence(3, 12),
          description: mentioning(forum, sentence(15, 90) + '.', POSTS_MENTIONING),
          tags,
          author: authorOf(actor),
          knownTags: forum.tags.state,
        },
      },
      post.stream.state,
      meta,
    );
    const out = forum.write(meta, [decided(post.stream, created), decided(author.stream, [...registration, ...authored])]);
    listed(forum, author);
    post.slot = forum.livePosts.length;
    forum.posts.push(post);
    forum.livePosts.push(post);
    return out;
  });
}

/** A post by a member most of the time, else by whoever may still post. */
export function postByAnyone(forum: SimulatedForum): SyntheticEvent[] | null {
  const { pick, rand } = forum.random;
  if (forum.members.length > 0 && rand() < 0.8) return createPost(forum, pick(forum.members));
  for (let tries = 0; tries < 20; tries++) {
    const out = createPost(forum, forum.actor());
    if (out) return out;
  }
  return null;
}

/** Its author most of the time (while they have an account), else an admin, deletes a post; the author's slot is freed with it. */
export function deletePost(forum: SimulatedForum): SyntheticEvent[] | null {
  const { pick, rand } = forum.random;
  const post = forum.livePosts.length > 0 ? pick(forum.livePosts) : undefined;
  if (!post || forum.admins.length === 0) return null;
  const by = rand() < 0.85 && registeredState(post.author) ? post.author : pick(forum.admins);
  const meta = forum.meta(by.id);
  const deleted = decidePost(
    { type: 'DeletePost', data: { postId: post.id, actor: { id: by.id, role: roleOf(by.stream.state) }, authorRole: roleOf(post.author.stream.state) } },
    post.stream.state,
    meta,
  );
  const freed = decideUser({ type: 'RemoveAuthoredPost', data: { postId: post.id } }, post.author.stream.state, meta);
  const out = forum.write(meta, [decided(post.stream, deleted), decided(post.author.stream, freed)]);
  forum.unlist(forum.livePosts, post);
  return out;
}

export function addComment(forum: SimulatedForum): SyntheticEvent[] | null {
  const post = forum.livePost();
  if (!post) return null;
  const author = forum.actor();
  const meta = forum.meta(author.id);
  const commentId = forum.timeId();
  const comment: Comment = {
    n: forum.comments.length,
    id: commentId,
    post,
    author,
    stream: keptStream(commentStream(commentId), initialCommentState, evolveComment),
    slot: -1,
  };
  const events = decideComment(
    {
      type: 'AddComment',
      data: {
        commentId: comment.id,
        postId: post.id,
        text: mentioning(forum, forum.random.sentence(3, 45), COMMENTS_MENTIONING, post),
        author: authorOf(registeredState(author)!),
        post: post.stream.state,
        authorIsStaff: isStaffRole(roleOf(author.stream.state)),
      },
    },
    comment.stream.state,
    meta,
  );
  const out = forum.write(meta, [decided(comment.stream, events)]);
  post.lastCommenter = author;
  comment.slot = forum.liveComments.length;
  forum.comments.push(comment);
  forum.liveComments.push(comment);
  return out;
}

/** The deletions of an erased member's posts and their comments on others' posts that are still there (those on their posts go with them), as the read models list them. */
export function erasedContent(forum: SimulatedForum, user: User, by: User, meta: ReturnType<SimulatedForum['meta']>) {
  const posts = forum.livePosts.filter((p) => p.author === user);
  const comments = forum.liveComments.filter((c) => c.author === user && c.post.slot >= 0 && c.post.author !== user);
  const decisions = [
    ...posts.map((p) => decided(p.stream, decidePost({ type: 'ErasePost', data: { postId: p.id, authorId: user.id, actorId: by.id } }, p.stream.state, meta))),
    ...comments.map((c) =>
      decided(c.stream, decideComment({ type: 'EraseComment', data: { commentId: c.id, authorId: user.id, actorId: by.id } }, c.stream.state, meta)),
    ),
  ];
  return { decisions, unlist: () => (posts.forEach((p) => forum.unlist(forum.livePosts, p)), comments.forEach((c) => forum.unlist(forum.liveComments, c))) };
}

export function publishAnnouncement(forum: SimulatedForum): SyntheticEvent[] | null {
  if (forum.admins.length === 0) return null;
  const { pick, sentence } = forum.random;
  const admin = pick(forum.admins);
  const meta = forum.meta(admin.id);
  const announcementId = forum.timeId();
  const stream = keptStream(announcementStream(announcementId), initialAnnouncementState, evolveAnnouncement);
  const events = decideAnnouncement(
    {
      type: 'PublishAnnouncement',
      data: { announcementId, title: sentence(3, 8), description: sentence(20, 60) + '.', author: authorOf(registeredState(admin)!) },
    },
    stream.state,
    meta,
  );
  const out = forum.write(meta, [decided(stream, events)]);
  forum.announcements.push(stream);
  return out;
}

/** A member opens the bell: the announcements are read up to the newest; null when they had read it already. */
export function readAnnouncements(forum: SimulatedForum): SyntheticEvent[] | null {
  const newest = forum.announcements.at(-1);
  if (!newest) return null;
  const member = forum.actor();
  const notifications = forum.notificationsOf(member);
  const meta = forum.meta(member.id);
  return forum.write(meta, [
    decided(
      notifications,
      decideNotification({ type: 'MarkAnnouncementsRead', data: { userId: member.id, announcement: newest.state } }, notifications.state, meta),
    ),
  ]);
}

/** A visitor writes on the Contact page. */
export function sendContactMessage(forum: SimulatedForum): SyntheticEvent[] | null {
  const { int, pick, sentence } = forum.random;
  const meta = forum.meta('anonymous');
  const messageId = forum.timeId();
  const stream = keptStream(contactMessageStream(messageId), initialContactMessageState, evolveContact);
  const data = { messageId, name: `${pick(FIRST_NAMES)} ${pick(LAST_NAMES)}`, email: `visitor${int(100_000)}@example.test`, message: sentence(5, 60) };
  return forum.write(meta, [decided(stream, decideContact({ type: 'ReceiveContactMessage', data }, stream.state, meta))]);
}
