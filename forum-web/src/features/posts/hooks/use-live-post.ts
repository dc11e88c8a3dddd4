import { api, readAfter, useApiDispatch } from '../../../lib/api';
import { postTopic, useLiveTopic } from '../../../lib/live';
import { getPostApi } from '../../../lib/post';

/**
 * A post page kept up to date by the stream (topic `post:<id>`): its counts as the stream gives
 * them (absolute, so a late or repeated message cannot add twice); when the post is edited, a read
 * of it and its revisions at the message's position; when it is deleted, a read that finds it gone
 * (the page then says so); when staff act on it, a read of it (hidden from this reader: gone; its
 * lock and pin marks).
 */
export function useLivePost(id: string) {
  const dispatch = useApiDispatch();
  useLiveTopic(postTopic(id), (message) => {
    if (message.type === 'post-counts') {
      const { upVote, downVote, commentCount } = message.data;
      dispatch(
        getPostApi.util.updateQueryData('getPost', id, (post) => {
          Object.assign(post, { upVote, downVote, commentCount });
        }),
      );
    } else if (message.type === 'post-deleted' || message.type === 'post-edited' || message.type === 'post-moderated') {
      readAfter('getPost', message.data.position);
      readAfter('getPostRevisions', message.data.position);
      dispatch(api.util.invalidateTags([{ type: 'Post', id }]));
    }
  });
}
