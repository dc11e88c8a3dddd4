import { api, readAfter, useApiDispatch } from '../../../lib/api';
import { useLiveTopic } from '../../../lib/live';

/**
 * The bell's count kept up to date by the stream: an announcement published (topic
 * `announcements`, everyone) reads the announcements again; a signed-in member's own news
 * (topic `me`: their warnings, or the announcements they have read, whose mark their
 * notifications carry) reads their notifications again. Each read carries the message's position.
 */
export function useLiveBell(signedIn: boolean) {
  const dispatch = useApiDispatch();
  useLiveTopic('announcements', (message) => {
    if (message.type !== 'announcement-published') return;
    readAfter('getAnnouncements', message.data.position);
    dispatch(api.util.invalidateTags(['Announcement']));
  });
  useLiveTopic(signedIn ? 'me' : null, (message) => {
    if (message.type !== 'notifications') return;
    readAfter('getNotifications', message.data.position);
    dispatch(api.util.invalidateTags(['Notification']));
  });
}
