import { postTopic, type StreamMessage, type StreamTopic } from '@forum/contracts';

/**
 * The topics of the page that `message` is for (contracts/src/http/stream.ts names which topic
 * carries which message): what the stream hands it to. `ready` and `refetch` are the stream's own.
 */
export function topicsOf(message: StreamMessage): StreamTopic[] {
  switch (message.type) {
    case 'post-created':
      return ['posts'];
    case 'post-deleted':
    case 'post-edited':
    case 'post-moderated':
      return ['posts', postTopic(message.data.postId)];
    case 'post-counts':
    case 'comment-added':
    case 'comment-removed':
    case 'comment-edited':
    case 'comment-moderated':
      return [postTopic(message.data.postId)];
    case 'announcement-published':
      return ['announcements'];
    case 'notifications':
    case 'account':
      return ['me'];
    case 'ready':
    case 'refetch':
      return [];
    default: {
      const never: never = message;
      return never;
    }
  }
}
