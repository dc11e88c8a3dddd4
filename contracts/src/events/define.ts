import { z } from 'zod';

/** What every event carries besides its data: the audit trail. */
export const EventMetadata = z.object({
  /** Subject of the caller (user id), or 'system:<component>' for the system's own writes. */
  actorId: z.string().min(1),
  correlationId: z.string().min(1),
  causationId: z.string().min(1).nullable(),
  requestId: z.string().min(1).nullable(),
  schemaVersion: z.number().int().positive(),
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
