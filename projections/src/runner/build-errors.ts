import { isDatabaseUnavailable } from '@forum/platform';

/** Thrown when a batch finds its checkpoint moved or retired by someone else: this runner lost the build. */
export class CheckpointMoved extends Error {}
/** The build stops where it is, its error recorded, until restarted (a poison event) or for good (discarded). */
export class Halted extends Error {}

/**
 * Errors of the database (not of the event's content): retry, don't halt. Those that say it cannot
 * serve just now (lost or refused connections, a server restarting, a full disk: platform's
 * isDatabaseUnavailable), and a transaction that lost to another.
 */
export function isTransient(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code ?? '';
  return (
    isDatabaseUnavailable(error) ||
    code.startsWith('57P') || // an operator's intervention, an idle session's timeout
    code === '40001' || // serialization failure
    code === '40P01' || // deadlock
    code === '55P03' // lock not available (lock_timeout)
  );
}
