/** Thrown when a batch finds its checkpoint moved or retired by someone else: this runner lost the build. */
export class CheckpointMoved extends Error {}
/** The build stops where it is, its error recorded, until restarted (a poison event) or for good (discarded). */
export class Halted extends Error {}

/** Errors of the connection or server (not of the event's content): retry, don't halt. */
export function isTransient(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code ?? '';
  return (
    code.startsWith('08') || // connection exceptions
    code.startsWith('57P') || // admin shutdown, crash shutdown, cannot connect now
    code === '40001' || // serialization failure
    code === '40P01' || // deadlock
    code === '53300' || // too many connections
    code === '55P03' || // lock not available (lock_timeout)
    ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT'].includes(code) ||
    /Connection terminated|Timeout acquiring a connection/i.test((error as Error | null)?.message ?? '')
  );
}
