import { ErrorCode } from '@forum/contracts';
import type { ServerResponse } from 'node:http';
import type { RequestHook } from './request-hook.ts';
import { AppError } from './errors.ts';

/** Too many requests of one kind at once: 503 with Retry-After, nothing done. */
export class BusyError extends AppError {
  constructor(what: string) {
    super(ErrorCode.BUSY, `Too many ${what} at once. Please try again in a moment.`);
  }
}

export interface BulkheadOptions {
  /** What the requests are, for the error message ('searches'). */
  readonly what: string;
  /** At most this many run at once. */
  readonly concurrency: number;
  /** At most this many wait for a turn (first come, first served); more are refused at once. */
  readonly queue: number;
  /** A request that waited this long for a turn is refused. */
  readonly maxWaitMs: number;
}

/**
 * A bulkhead for one kind of request, as a Fastify hook (onRequest or preHandler): however many
 * arrive, at most `concurrency` of them hold database connections at once, so a flood of one kind
 * (searches) leaves the pool to the others. A turn ends when the response is finished or its
 * client has gone; a waiting request whose client leaves gives up its place.
 */
export function bulkheadHook(options: BulkheadOptions): RequestHook {
  const admit = admission(options);
  return (_request, reply, done) => admit(reply.raw, done);
}

/** One bulkhead's turns: `proceed()` once the request `res` answers has one, `proceed(BusyError)` when it gets none. */
function admission(options: BulkheadOptions) {
  let running = 0;
  const waiting: { start: () => void; refuse: () => void }[] = [];
  const next = () => {
    while (running < options.concurrency && waiting.length > 0) waiting.shift()!.start();
  };
  return (res: ServerResponse, proceed: (error?: Error) => void) => {
    const start = () => {
      running += 1;
      res.once('close', () => {
        running -= 1;
        next();
      });
      proceed();
    };
    if (running < options.concurrency) return start();
    if (waiting.length >= options.queue) return proceed(new BusyError(options.what));
    const entry = {
      start: () => {
        clearTimeout(timer);
        res.off('close', leave);
        start();
      },
      refuse: () => proceed(new BusyError(options.what)),
    };
    const remove = () => {
      const index = waiting.indexOf(entry);
      if (index >= 0) waiting.splice(index, 1);
    };
    const timer = setTimeout(() => {
      remove();
      res.off('close', leave);
      entry.refuse();
    }, options.maxWaitMs);
    const leave = () => {
      clearTimeout(timer);
      remove();
    };
    res.once('close', leave);
    waiting.push(entry);
  };
}
