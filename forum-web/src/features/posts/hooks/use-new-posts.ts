import { WrittenPosition } from '@forum/contracts';
import { useState } from 'react';
import { api, readAfter, useApiDispatch } from '../../../lib/api';
import { useLiveTopic } from '../../../lib/live';

/** A post the stream said was created: at which position, and when this tab heard of it. */
interface Heard {
  position: string;
  at: number;
}

/**
 * The home list's news from the stream (topic `posts`): the posts created since it was read that
 * it does not show, and the shown posts deleted meanwhile. A post heard of before the list of the
 * newest was read (`newestReadAt`, when that read started) is in it, or older than what it shows.
 * A shown post edited elsewhere is read again (its new title), at the message's position; when staff
 * hide, show, pin or unpin a post, or lock one shown, the list is read again (it may leave or join it,
 * or move among the pins).
 */
export function useNewPosts(shownIds: readonly string[], newestReadAt: number | undefined) {
  const [heard, setHeard] = useState<ReadonlyMap<string, Heard>>(new Map());
  const [deleted, setDeleted] = useState<ReadonlySet<string>>(new Set());
  const dispatch = useApiDispatch();

  const isNew = (id: string, { at }: Heard) => !shownIds.includes(id) && !(newestReadAt !== undefined && newestReadAt > at);
  const waiting = [...heard].filter(([id, post]) => isNew(id, post));

  useLiveTopic('posts', (message) => {
    if (message.type === 'post-created') {
      const { postId, position } = message.data;
      // what the list has taken in is forgotten, so the map holds only what is waiting
      setHeard((before) => new Map([...before].filter(([id, post]) => isNew(id, post))).set(postId, { position, at: Date.now() }));
    } else if (message.type === 'post-deleted') {
      const { postId } = message.data;
      setHeard((before) => new Map([...before].filter(([id]) => id !== postId)));
      if (shownIds.includes(postId)) setDeleted((before) => new Set(before).add(postId));
    } else if (message.type === 'post-edited' && shownIds.includes(message.data.postId)) {
      readAfter('getPosts', message.data.position);
      dispatch(api.util.invalidateTags([{ type: 'Post', id: message.data.postId }]));
    } else if (message.type === 'post-moderated') {
      readAfter('getPosts', message.data.position);
      dispatch(api.util.invalidateTags([{ type: 'Post', id: 'LIST' }]));
    }
  });

  const newest = new WrittenPosition();
  for (const [, post] of waiting) newest.saw(post.position);
  return {
    /** How many new posts the list does not show. */
    count: waiting.length,
    /** The position a read of the list must reflect to show them all. */
    position: newest.get(),
    /** Shown posts the stream said were deleted. */
    deleted,
    /** They are being read: nothing is waiting. */
    taken: () => setHeard(new Map()),
  };
}
