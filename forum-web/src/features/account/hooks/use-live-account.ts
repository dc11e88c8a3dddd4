import { api, readAfter, useApiDispatch } from '../../../lib/api';
import { useLiveTopic } from '../../../lib/live';

/**
 * The member's own account kept up to date by the stream (topic `me`): when staff suspend them, lift
 * it, or change their role, GET /api/me is read again at the message's position (the banner, the
 * staff's controls).
 */
export function useLiveAccount(signedIn: boolean) {
  const dispatch = useApiDispatch();
  useLiveTopic(signedIn ? 'me' : null, (message) => {
    if (message.type !== 'account') return;
    readAfter('getMe', message.data.position);
    dispatch(api.util.invalidateTags(['Me']));
  });
}
