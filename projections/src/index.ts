import { announcementsProjection } from './announcements/projection.ts';
import { auditProjection } from './audit/projection.ts';
import { commentsProjection } from './comments/projection.ts';
import { contactProjection } from './contact/projection.ts';
import { notificationPreferencesProjection } from './notification-preferences/projection.ts';
import { notificationsProjection } from './notifications/projection.ts';
import { postsProjection } from './posts/projection.ts';
import { reportQueueProjection } from './report-queue/projection.ts';
import { sitemapProjection } from './sitemap/projection.ts';
import type { Projection } from './runner/projection.ts';
import { tagsProjection } from './tags/projection.ts';
import { usersProjection } from './users/projection.ts';

export * from './runner/checkpoints.ts';
export * from './runner/control.ts';
export * from './runner/projection.ts';
export * from './runner/runner.ts';
export * from './runner/status.ts';
export { buildLags } from './runner/lags.ts';
export { ProjectionsConfig } from './config.ts';
export { PAGE_BLOCK } from './posts/pages.ts';
export { pageThroughBlocks, type PostList } from './posts/page-reads.ts';
export { USER_LISTS, usersThroughBlocks, type UserList } from './users/page-reads.ts';
export { postsProjection, tagsProjection, usersProjection };
export { announcementsProjection, auditProjection, contactProjection };
export { commentsProjection, notificationsProjection, notificationPreferencesProjection, reportQueueProjection, sitemapProjection };

/** Every read model of the forum, at its current version. */
export const allProjections: readonly Projection[] = [
  postsProjection,
  tagsProjection,
  usersProjection,
  announcementsProjection,
  contactProjection,
  auditProjection,
  commentsProjection,
  notificationsProjection,
  notificationPreferencesProjection,
  reportQueueProjection,
  sitemapProjection,
];
