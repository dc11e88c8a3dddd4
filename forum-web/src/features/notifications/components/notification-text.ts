import type { ActivityItem } from '@forum/contracts';

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
