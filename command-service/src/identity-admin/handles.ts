import type { Logger } from '@forum/platform';
import type { IdentityAdmin } from './port.ts';

/** What the handle commands call once a member's handle changed (see ForumCommandsOptions.handleWritten). */
export type HandleWritten = (userId: string, handle: string) => void;

/**
 * Keeps the identity provider's copy of members' handles (its tokens' `handle` claim), best effort
 * after the forum recorded the change: the forum's log is the source of truth, so a failure is logged
 * (the account and why, never the handle nor a token) and the copy is mended by the member's next
 * change. `identity` is asked at each call (the embedded realm comes after the commands).
 */
export function realmHandleWriter(identity: () => Pick<IdentityAdmin, 'setHandle'> | null, logger: Logger): HandleWritten {
  const log = logger.child({ component: 'realm-handles' });
  return (userId, handle) => {
    const admin = identity();
    if (!admin) return;
    admin.setHandle(userId, handle).catch((err: unknown) => {
      log.warn({ userId, reason: err instanceof Error ? err.message : String(err) }, 'the identity provider did not take the handle');
    });
  };
}
