import { HEADER_MIN_POSITION, HEADER_READ_BEHIND, parsePositionToken } from '@forum/contracts';
import { ValidationError } from '@forum/platform';
import type { RequestHandler } from 'express';
import type { CheckpointWatcher } from '../store/checkpoint-watcher.ts';

/**
 * Read-your-writes: with X-Min-Position (the X-Event-Position a command gave),
 * wait until the projections have applied that event, at most `maxWaitMs`.
 * Then answer anyway; X-Read-Behind: true says the answer may not show it yet.
 */
export function minPosition(watcher: CheckpointWatcher, maxWaitMs: number): RequestHandler {
  return async (req, res, next) => {
    const token = req.get(HEADER_MIN_POSITION);
    if (token === undefined) return next();
    const position = parsePositionToken(token);
    if (!position) throw new ValidationError({ [HEADER_MIN_POSITION]: ['Pass back exactly the X-Event-Position a command returned'] });
    if (!(await watcher.waitFor(position, maxWaitMs))) res.set(HEADER_READ_BEHIND, 'true');
    next();
  };
}
