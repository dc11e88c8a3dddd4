import { randomUUID } from 'node:crypto';
import { createPostgresEventStore, type EventStore } from '@forum/eventstore';
import { createKnex, createLogger } from '@forum/platform';
import { createTestDatabase, testEventMetadata, waitFor } from '@forum/platform/testing';
import {
  createProjectionRunner,
  notificationPreferencesProjection,
  notificationsProjection,
  postsProjection,
  projectionStatus,
  usersProjection,
  type ProjectionRunner,
} from '@forum/projections';

/** An event to append to its stream. */
export interface LogEvent {
  readonly streamId: string;
  readonly type: string;
  readonly data: unknown;
}

/**
 * What the notifications' mailer reads, made for real: events appended to a PostgreSQL event store
 * of a test's own database and the projections that make the read models it reads (users, posts,
 * notifications, preferences) running over them, as in the forum. `given` appends and waits until
 * every projection has applied the events.
 */
export async function startMailLog(prefix: string) {
  const database = await createTestDatabase(prefix);
  const db = createKnex(database.url);
  const store: EventStore = await createPostgresEventStore({ connectionString: database.url, poolSize: 2 });
  const runner: ProjectionRunner = createProjectionRunner({
    db,
    connectionString: database.url,
    store,
    projections: [usersProjection, postsProjection, notificationsProjection, notificationPreferencesProjection],
    logger: createLogger('mail-log', 'silent'),
  });
  await runner.start();

  /** Appends each event to its stream, in order, and waits until the projections have applied them. */
  async function given(...events: readonly LogEvent[]): Promise<void> {
    for (const { streamId, type, data } of events)
      await store.append([{ streamId, expectedVersion: 'any', events: [{ type, data, metadata: testEventMetadata() }] }]);
    await waitFor(
      () => projectionStatus(db),
      (all) => all.length === 4 && all.every((status) => status.lag === 0),
    );
  }

  /** An ISO time `secondsAgo` before now. */
  const ago = (secondsAgo: number) => new Date(Date.now() - secondsAgo * 1000).toISOString();

  return {
    db,
    url: database.url,
    given,
    /** A member registered with the forum. */
    registered: (userId: string, name: string, email = `${userId}@forum.test`) => ({
      streamId: `user-${userId}`,
      type: 'UserRegistered',
      data: { userId, email, name, photoURL: '', registeredAt: ago(3600) },
    }),
    /** A post by `authorId`, made `secondsAgo` ago; `postId` names it. */
    post: (postId: string, authorId: string, title: string, tags: string[] = [], secondsAgo = 3600) => ({
      streamId: `post-${postId}`,
      type: 'PostCreated',
      data: { postId, title, description: 'About it', tags, authorId, authorName: authorId, authorEmail: '', authorPhoto: '', createdAt: ago(secondsAgo) },
    }),
    /** A comment on `postId` by `authorId`, made `secondsAgo` ago. */
    comment: (postId: string, authorId: string, secondsAgo = 0, text = 'Nice post') => {
      const commentId = randomUUID();
      return {
        streamId: `comment-${commentId}`,
        type: 'CommentAdded',
        data: { commentId, postId, text, authorId, authorName: authorId, authorEmail: '', authorPhoto: '', createdAt: ago(secondsAgo) },
      };
    },
    /** The member chose how kinds reach them. */
    prefers: (userId: string, changes: Record<string, string>) => ({
      streamId: `notifications-${userId}`,
      type: 'NotificationPreferencesChanged',
      data: { userId, changes, via: 'settings', changedAt: ago(0) },
    }),
    /** A moderator warned the member, `secondsAgo` ago. */
    warned: (userId: string, reason: string, secondsAgo = 0) => {
      const warningId = randomUUID();
      return {
        streamId: `notifications-${userId}`,
        type: 'UserWarned',
        data: { warningId, userId, reason, warnedBy: 'u-moderator', warnedAt: ago(secondsAgo) },
      };
    },
    /** A moderator hid the member's post, `secondsAgo` ago. */
    postHidden: (postId: string, authorId: string, reason: string, secondsAgo = 0) => ({
      streamId: `post-${postId}`,
      type: 'PostHidden',
      data: { postId, authorId, reason, hiddenBy: 'u-moderator', hiddenAt: ago(secondsAgo) },
    }),
    /** A moderator suspended the member until `until` (null: until lifted), `secondsAgo` ago. */
    suspended: (userId: string, reason: string, until: string | null, secondsAgo = 0) => ({
      streamId: `user-${userId}`,
      type: 'MemberSuspended',
      data: { userId, reason, until, suspendedBy: 'u-moderator', suspendedAt: ago(secondsAgo) },
    }),
    /** The member read these notifications (the projection's ids). */
    read: (userId: string, ids: string[]) => ({
      streamId: `notifications-${userId}`,
      type: 'NotificationsRead',
      data: { userId, ids, readAt: ago(0) },
    }),
    /** The member's handle, which mentions name them by. */
    handle: (userId: string, handle: string) => ({
      streamId: `user-${userId}`,
      type: 'HandleChanged',
      data: { userId, handle, source: 'profile', changedAt: ago(0) },
    }),
    /** The member follows a tag. */
    followsTag: (userId: string, tag: string) => ({ streamId: `follows-${userId}`, type: 'TagFollowed', data: { userId, tag, at: ago(0) } }),
    disabled: (userId: string) => ({ streamId: `user-${userId}`, type: 'AccountDisabled', data: { userId, disabledAt: ago(0) } }),
    erased: (userId: string) => ({ streamId: `user-${userId}`, type: 'AccountErased', data: { userId, content: 'kept', erasedAt: ago(0) } }),
    /** The member's notification rows as the projection has them. */
    notifications: async (userId: string) =>
      (
        await db.raw<{ rows: { id: string; kind: string; count: number }[] }>(
          'SELECT id, kind, count FROM read.notifications WHERE user_id = ? ORDER BY created_at',
          [userId],
        )
      ).rows,
    async stop() {
      await runner.stop();
      await store.close();
      await db.destroy();
      await database.drop();
    },
  };
}

export type MailLog = Awaited<ReturnType<typeof startMailLog>>;
