import type { EventMetadata } from '@forum/contracts';

/**
 * What a decider may know besides the command's data: who asks and when.
 * Only the service's wiring makes clocks and ids; deciders stay pure.
 */
export interface CommandMeta {
  readonly actorId: string;
  readonly now: Date;
  readonly correlationId: string;
  readonly causationId: string | null;
  readonly requestId: string | null;
}

/**
 * The metadata of a command an operator gives from outside any request (a command line, an
 * identity provider's admin): they are the actor, nothing caused it, and `source` with the time
 * is its correlation id.
 */
export function operatorMeta(actorId: string, source: string, now: Date): CommandMeta {
  return { actorId, now, correlationId: `${source}-${now.getTime()}`, causationId: null, requestId: null };
}

/** An event's metadata; `traceparent`: the span of the command that writes it, when traced (activeTraceparent). */
export function eventMetadata(meta: CommandMeta, schemaVersion: number, traceparent?: string): EventMetadata {
  return {
    actorId: meta.actorId,
    correlationId: meta.correlationId,
    causationId: meta.causationId,
    requestId: meta.requestId,
    schemaVersion,
    ...(traceparent && { traceparent }),
  };
}

/** Exhaustiveness check for switches over unions. */
export function unreachable(value: never): never {
  throw new Error(`Unhandled case: ${JSON.stringify(value)}`);
}
