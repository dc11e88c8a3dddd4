import type { Logger } from '@forum/platform';
import type { RoleWritten } from '../domain/moderation/commands.ts';
import type { IdentityAdmin } from './port.ts';

/**
 * Keeps the identity provider's copy of members' moderator role (the realm role `moderator` in its
 * tokens), as realmHandleWriter keeps handles: best effort after the forum recorded the grant or
 * revocation, a failure logged (the account and why) and mended by the next change.
 */
export function realmRoleWriter(identity: () => Pick<IdentityAdmin, 'setModerator'> | null, logger: Logger): RoleWritten {
  const log = logger.child({ component: 'realm-roles' });
  return (userId, moderator) => {
    const admin = identity();
    if (!admin) return;
    admin.setModerator(userId, moderator).catch((err: unknown) => {
      log.warn({ userId, moderator, reason: err instanceof Error ? err.message : String(err) }, 'the identity provider did not take the moderator role');
    });
  };
}
