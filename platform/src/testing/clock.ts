/** The instant of tests whose clock is fixed (a command's `now`, the timestamps it stamps on events). */
export const FIXED_NOW = '2026-11-21T10:00:00.000Z';

/** The time now as events carry it, for tests whose timestamps must be current. */
export const isoNow = (): string => new Date().toISOString();
