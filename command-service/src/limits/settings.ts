import { WRITE_KINDS, WRITE_LIMITS, type WriteKind, type WriteLimit } from '@forum/contracts';
import { z } from 'zod';

const windowChange = z.strictObject({
  points: z.number().int().min(1).max(1_000_000).optional(),
  seconds: z
    .number()
    .int()
    .min(1)
    .max(7 * 86_400)
    .optional(),
});
const changes = z.partialRecord(z.enum(WRITE_KINDS), z.strictObject({ burst: windowChange.optional(), sustained: windowChange.optional() }));

/** Contracts' WRITE_LIMITS with `changed` windows' numbers in their place. */
function withChanges(changed: z.infer<typeof changes>): Record<WriteKind, WriteLimit> {
  return Object.fromEntries(
    WRITE_KINDS.map((kind) => {
      const limit = WRITE_LIMITS[kind];
      return [kind, { burst: { ...limit.burst, ...changed[kind]?.burst }, sustained: { ...limit.sustained, ...changed[kind]?.sustained } }];
    }),
  ) as Record<WriteKind, WriteLimit>;
}

/** Configuration of the write limits (docs/security/abuse-limits.md). */
export const writeLimitSettings = {
  /**
   * `on` (the default): contracts' WRITE_LIMITS. `off`: no limits (benchmarks; the test forum unless
   * a test asks). Or JSON that changes some windows of WRITE_LIMITS, e.g. `{"comment":{"burst":{"points":3}}}`.
   */
  WRITE_LIMITS: z
    .string()
    .default('on')
    .transform((value, ctx): Record<WriteKind, WriteLimit> | null => {
      if (value === 'off') return null;
      if (value === 'on') return withChanges({});
      let json: unknown;
      try {
        json = JSON.parse(value);
      } catch {
        ctx.addIssue({ code: 'custom', message: 'on, off, or JSON such as {"comment":{"burst":{"points":3}}}' });
        return z.NEVER;
      }
      const parsed = changes.safeParse(json);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: `${issue.path.join('.')}: ${issue.message}` });
        return z.NEVER;
      }
      return withChanges(parsed.data);
    }),
};
