import type { CommentItem } from '@forum/contracts';
import { api, readAfter, useApiDispatch } from '../../../lib/api';
import { postTopic, useLiveTopic } from '../../../lib/live';
import { getCommentsApi } from '../api/get-comments';

/**
 * A post's comments kept up to date by the stream (topic `post:<id>`): a comment written
 * elsewhere comes first (the list is read again from its first page, with the message's position,
 * so it is in it; one the list shows already, such as the reader's own, reads nothing), an
 * edited one is read again with its new text, one staff hid or showed is read again with the list, a removed one goes from the list at once, and the count follows the post's.
 */
export function useLiveComments(postId: string, shown: readonly Pick<CommentItem, '_id'>[]) {
  const dispatch = useApiDispatch();
  useLiveTopic(postTopic(postId), (message) => {
    if (message.type === 'comment-added') {
      if (shown.some((comment) => comment._id === message.data.commentId)) return;
      readAfter('getComments', message.data.position);
      dispatch(api.util.invalidateTags([{ type: 'Comment', id: postId }]));
    } else if (message.type === 'comment-edited') {
      // the list with its new text, and its revisions if they are open
      readAfter('getComments', message.data.position);
      readAfter('getCommentRevisions', message.data.position);
      dispatch(
        api.util.invalidateTags([
          { type: 'Comment', id: postId },
          { type: 'Comment', id: message.data.commentId },
        ]),
      );
    } else if (message.type === 'comment-moderated') {
      // hidden from this reader, or shown again: the list as the server now gives it to them
      readAfter('getComments', message.data.position);
      dispatch(api.util.invalidateTags([{ type: 'Comment', id: postId }]));
    } else if (message.type === 'comment-removed') {
      const { commentId } = message.data;
      dispatch(
        getCommentsApi.util.updateQueryData('getComments', postId, (list) => {
          for (const page of list.pages) page.comments = page.comments.filter((comment) => comment._id !== commentId);
        }),
      );
    } else if (message.type === 'post-counts') {
      // how many there are (Showing n of m), as the stream counts them
      const { commentCount } = message.data;
      dispatch(
        getCommentsApi.util.updateQueryData('getComments', postId, (list) => {
          for (const page of list.pages) page.totalCount = commentCount;
        }),
      );
    }
  });
}
