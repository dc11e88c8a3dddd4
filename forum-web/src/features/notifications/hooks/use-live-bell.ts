import { api, readAfter, useApiDispatch } from '../../../lib/api';
import { useLiveTopic } from '../../../lib/live';

/**
 * The bell's count kept up to date by the stream: an announcement published (topic
 * `announcements`, everyone) reads the announcements again; a signed-in member's own news
 * (topic `me`: their warnings, or what they have read) reads their notifications and the
 * announcements again. Each read carries the message's position.
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
    readAfter('getAnnouncements', message.data.position);
    dispatch(api.util.invalidateTags(['Notification', 'Announcement']));
  });
}
