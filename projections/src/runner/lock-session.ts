import { AdvisoryLockSession, type Logger } from '@forum/platform';
import type { BuildKey } from './checkpoints.ts';

const LOCK_CLASS = 4242;

export const lockKey = (key: BuildKey) => `${key.name}:${key.version}:${key.build}`;

export interface LockSessionEvents {
  /** A stopped runner opens no session. */
  stopped(): boolean;
  /** The session is gone, and every lock it held with it. */
  lost(): void;
}

/** One session holds every advisory lock of this runner (one per build, keyed by `lockKey`). */
export function projectionLockSession(connectionString: string, logger: Logger, events: LockSessionEvents): AdvisoryLockSession {
  // Losing the session releases the locks: every worker must stop writing and start over
  return new AdvisoryLockSession({
    connectionString,
    applicationName: 'forum-projection-locks',
    lockClass: LOCK_CLASS,
    logger,
    label: 'projection lock session',
    stopped: () => events.stopped(),
    lost: () => events.lost(),
  });
}
