import {
  commentLink,
  DELETED_USER_NAME,
  NOTIFICATIONS_PATH,
  MODERATION_ACTIONS,
  NotificationsQuery,
  PostIdParams,
  postLink,
  FollowedTags,
  type NotificationItem,
  Notifications,
  PostFollowing,
} from '@forum/contracts';
import { plainLine, summarize } from '@forum/contracts/markdown';
import { NotFoundError } from '@forum/platform';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import type { CommunityStore } from '../store/community.ts';
import type { NotificationRow, NotificationsStore } from '../store/notifications.ts';
import { signedIn } from './access.ts';

/** A warning: it leads to the comment warned about while its post is there, else to the centre. */
const warning = (row: NotificationRow): NotificationItem => ({
  _id: row.id,
  kind: 'warning',
  reason: row.reason ?? '',
  ...(row.comment_id !== null ? { commentId: row.comment_id } : {}),
  ...(row.post_id !== null ? { postId: row.post_id } : {}),
  ...(row.post_title !== null ? { postTitle: row.post_title } : {}),
  ...(row.comment_quote !== null ? { commentQuote: plainLine(row.comment_quote) } : {}),
  createdAt: row.updated_at.toISOString(),
  read: row.read,
  link: row.post_id !== null && row.comment_id !== null && row.post_title !== null ? commentLink(row.post_id, row.comment_id) : NOTIFICATIONS_PATH,
});

/** What staff did (issue #43): it leads to the post or comment while it is there, else to the centre. */
const moderation = (row: NotificationRow): NotificationItem => ({
  _id: row.id,
  kind: 'moderation',
  action: MODERATION_ACTIONS.find((action) => action === row.action) ?? 'suspended',
  ...(row.reason !== null ? { reason: row.reason } : {}),
  ...(row.post_id !== null ? { postId: row.post_id } : {}),
  ...(row.post_title !== null ? { postTitle: row.post_title } : {}),
  ...(row.comment_id !== null ? { commentId: row.comment_id } : {}),
  ...(row.action === 'suspended' ? { until: row.until?.toISOString() ?? null } : {}),
  createdAt: row.updated_at.toISOString(),
  read: row.read,
  link:
    row.post_id === null || row.post_title === null
      ? NOTIFICATIONS_PATH
      : row.comment_id === null
        ? postLink(row.post_id)
        : row.comment_opening === null
          ? NOTIFICATIONS_PATH
          : commentLink(row.post_id, row.comment_id),
});

/**
 * What the log fanned out: it leads to its comment (or post) while that is there, else nowhere (null);
 * its excerpt is the comment's (or post's) opening as plain text, '' once gone; its actor reads
 * 'Deleted user' once erased.
 */
function activity(row: NotificationRow & { kind: Exclude<NotificationRow['kind'], 'warning' | 'moderation'> }): NotificationItem {
  const postId = row.post_id!;
  const gone = row.post_title === null || (row.comment_id !== null && row.comment_opening === null);
  const opening = row.comment_id !== null ? row.comment_opening : row.post_opening;
  return {
    _id: row.id,
    kind: row.kind,
    postId,
    postTitle: row.post_title ?? '',
    ...(row.comment_id !== null ? { commentId: row.comment_id } : {}),
    ...(row.tag !== null ? { tag: row.tag } : {}),
    count: row.count,
    actor: row.actor_known
      ? { _id: row.actor_id, name: row.actor_name!, handle: row.actor_handle, photoURL: row.actor_photo ?? '' }
      : { _id: null, name: DELETED_USER_NAME, handle: null, photoURL: '' },
    excerpt: opening === null ? '' : summarize(opening),
    createdAt: row.updated_at.toISOString(),
    read: row.read,
    link: gone ? null : row.comment_id !== null ? commentLink(postId, row.comment_id) : postLink(postId),
  };
}

const item = (row: NotificationRow): NotificationItem =>
  row.kind === 'warning' ? warning(row) : row.kind === 'moderation' ? moderation(row) : activity({ ...row, kind: row.kind });

/** The notification centre (GET /api/me/notifications) and a member's follows: the caller's own, signed in. */
export function notificationRoutes(notifications: NotificationsStore, community: CommunityStore): FastifyPluginCallbackZod {
  return (api, _options, done) => {
    api.get('/me/notifications', { schema: { answers: { 200: { body: Notifications } }, querystring: NotificationsQuery } }, async (request) => {
      const viewer = signedIn(request);
      const { page, unread: unreadOnly } = request.query;
      const [{ rows, total, unread }, readUpTo] = await Promise.all([
        notifications.page(viewer.id, page, unreadOnly),
        community.announcementsReadUpTo(viewer.id),
      ]);
      const body: Notifications = {
        notifications: rows.map(item),
        unread,
        totalCount: total,
        page,
        announcementsReadUpTo: readUpTo?.toISOString() ?? null,
      };
      return body;
    });

    api.get('/posts/:id/follow', { schema: { answers: { 200: { body: PostFollowing } }, errors: ['NOT_FOUND'], params: PostIdParams } }, async (request) => {
      const viewer = signedIn(request);
      const following = await notifications.followsPost(viewer.id, request.params.id);
      if (following === null) throw new NotFoundError('No such post');
      const body: PostFollowing = { following };
      return body;
    });

    api.get('/me/followed-tags', { schema: { answers: { 200: { body: FollowedTags } } } }, async (request) => {
      const body: FollowedTags = { tags: await notifications.followedTags(signedIn(request).id) };
      return body;
    });
    done();
  };
}
