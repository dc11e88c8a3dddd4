import { WRITE_LIMITS } from '@forum/contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { writeLimitSettings } from './settings.ts';

const Settings = z.object(writeLimitSettings);

describe('WRITE_LIMITS', () => {
  it("is contracts' WRITE_LIMITS when unset or 'on', and no limits when 'off'", () => {
    expect(Settings.parse({}).WRITE_LIMITS).toEqual(WRITE_LIMITS);
    expect(Settings.parse({ WRITE_LIMITS: 'on' }).WRITE_LIMITS).toEqual(WRITE_LIMITS);
    expect(Settings.parse({ WRITE_LIMITS: 'off' }).WRITE_LIMITS).toBeNull();
  });

  it('changes only the windows and numbers JSON names', () => {
    const limits = Settings.parse({ WRITE_LIMITS: '{"comment":{"burst":{"points":3}},"vote":{"sustained":{"seconds":60}}}' }).WRITE_LIMITS!;
    expect(limits.comment).toEqual({ burst: { points: 3, seconds: WRITE_LIMITS.comment.burst.seconds }, sustained: WRITE_LIMITS.comment.sustained });
    expect(limits.vote).toEqual({ burst: WRITE_LIMITS.vote.burst, sustained: { points: WRITE_LIMITS.vote.sustained.points, seconds: 60 } });
    expect(limits.post).toEqual(WRITE_LIMITS.post);
  });

  it.each([
    ['not JSON', 'lots'],
    ['an unknown kind', '{"likes":{"burst":{"points":3}}}'],
    ['an unknown window', '{"comment":{"daily":{"points":3}}}'],
    ['zero points', '{"comment":{"burst":{"points":0}}}'],
    ['a fraction of a second', '{"comment":{"burst":{"seconds":0.5}}}'],
  ])('refuses %s', (_case, value) => {
    expect(Settings.safeParse({ WRITE_LIMITS: value }).success).toBe(false);
  });
});
