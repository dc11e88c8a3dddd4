import type { ActivityItem, ModerationItem } from '@forum/contracts';
import { suspensionEnd } from '../../../lib/suspension';

/** A post's title as a notification names it ('' once the post is gone). */
const titleOf = (item: ActivityItem) => item.postTitle || 'a deleted post';

/**
 * What a reply, a followed post's comment, a followed tag's new post or a mention says: who did what
 * where ("Bob commented on Zero-downtime deploys"); comments collapsed into one say how many
 * ("5 new comments on Zero-downtime deploys").
 */
export function activityText(item: ActivityItem): string {
  switch (item.kind) {
    case 'reply':
    case 'followed-post':
      return item.count > 1 ? `${item.count} new comments on ${titleOf(item)}` : `${item.actor.name} commented on ${titleOf(item)}`;
    case 'followed-tag':
      return `New post in ${item.tag ?? 'a tag you follow'}: ${titleOf(item)}`;
    case 'mention':
      return `${item.actor.name} mentioned you in ${titleOf(item)}`;
  }
}

/** The post a moderation notification names: its title while it is there. */
const postNamed = (item: ModerationItem) => (item.postTitle ? `"${item.postTitle}"` : 'a post that was deleted');

/**
 * What staff did, as the member is told it ("A moderator hid your post "Deploys""); the reason is
 * said apart, under it.
 */
export function moderationText(item: ModerationItem): string {
  switch (item.action) {
    case 'post-hidden':
      return `A moderator hid your post ${postNamed(item)}`;
    case 'post-unhidden':
      return `Your post ${postNamed(item)} is shown again`;
    case 'comment-hidden':
      return `A moderator hid your comment on ${postNamed(item)}`;
    case 'comment-unhidden':
      return `Your comment on ${postNamed(item)} is shown again`;
    case 'suspended':
      return `Your account is suspended ${suspensionEnd(item.until ?? null)}`;
    case 'suspension-lifted':
      return 'Your suspension was lifted: you can write again';
  }
}
