import { z } from 'zod';

/**
 * A W3C Trace Context `traceparent` of version 00 (https://www.w3.org/TR/trace-context/): version,
 * trace id, parent span id, flags, in lower-case hex; neither id all zeros.
 */
export const TRACEPARENT = /^00-(?!0{32})[0-9a-f]{32}-(?!0{16})[0-9a-f]{16}-[0-9a-f]{2}$/;

/** What every event carries besides its data: the audit trail. */
export const EventMetadata = z.object({
  /** Subject of the caller (user id), or 'system:<component>' for the system's own writes. */
  actorId: z.string().min(1),
  correlationId: z.string().min(1),
  causationId: z.string().min(1).nullable(),
  requestId: z.string().min(1).nullable(),
  schemaVersion: z.number().int().positive(),
  /**
   * The trace of the command that wrote the event (its span, as W3C `traceparent`), when tracing is
   * on: what the projections' and the change stream's spans join (docs/operations.md#traces). An
   * operational id made by the service, never a value a client sent.
   */
  traceparent: z.string().regex(TRACEPARENT).optional(),
});
export type EventMetadata = z.infer<typeof EventMetadata>;

export interface EventDefinition<Type extends string, Schema extends z.ZodType> {
  readonly type: Type;
  readonly schemaVersion: number;
  readonly schema: Schema;
}

export function defineEvent<Type extends string, Schema extends z.ZodType>(type: Type, schemaVersion: number, schema: Schema): EventDefinition<Type, Schema> {
  return { type, schemaVersion, schema };
}

export const isoDate = z.string().datetime({ offset: true });
