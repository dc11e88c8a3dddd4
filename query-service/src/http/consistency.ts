import { HEADER_MIN_POSITION, HEADER_READ_BEHIND, parsePositionToken } from '@forum/contracts';
import { ValidationError } from '@forum/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CheckpointWatcher } from '../store/checkpoint-watcher.ts';

const MIN_POSITION = HEADER_MIN_POSITION.toLowerCase();

/**
 * Read-your-writes: with X-Min-Position (the X-Event-Position a command gave),
 * wait until the projections have applied that event, at most `maxWaitMs`.
 * Then answer anyway; X-Read-Behind: true says the answer may not show it yet.
 */
export function minPosition(watcher: CheckpointWatcher, maxWaitMs: number) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const token = request.headers[MIN_POSITION];
    if (token === undefined) return;
    const position = typeof token === 'string' ? parsePositionToken(token) : null;
    if (!position) throw new ValidationError({ [HEADER_MIN_POSITION]: ['Pass back exactly the X-Event-Position a command returned'] });
    if (!(await watcher.waitFor(position, maxWaitMs))) reply.header(HEADER_READ_BEHIND, 'true');
  };
}
