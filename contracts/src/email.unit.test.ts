import { describe, expect, it } from 'vitest';
import { EMAIL_MAX } from './constants.ts';
import { isEmail, normalizeEmail } from './email.ts';

describe('normalizeEmail: one spelling per mailbox', () => {
  it.each([
    ['  Alice@Forum.LOCAL  ', 'alice@forum.local'],
    ['alice@forum.local.', 'alice@forum.local'],
    ['ALICE@FORUM.LOCAL.', 'alice@forum.local'],
    ['rene\u0301@forum.local', 'ren\u00e9@forum.local'],
    ['REN\u00c9@forum.local', 'ren\u00e9@forum.local'],
    ['a.b+tag@gmail.com', 'a.b+tag@gmail.com'],
    ['alice@forum.local..', 'alice@forum.local.'],
  ])('%j → %j', (given, expected) => {
    expect(normalizeEmail(given)).toBe(expected);
  });
});

describe('isEmail (of a normalised address)', () => {
  it.each([
    'alice@forum.local',
    'ren\u00e9@forum.local',
    'a@b.c',
    'x+y@sub.example.org',
    'ann@b\u00fccher.de',
    'ann@xn--bcher-kva.de',
    `${'a'.repeat(64)}@forum.local`,
  ])('accepts %j', (email) => {
    expect(isEmail(email)).toBe(true);
  });
  it.each([
    '',
    'alice',
    '@forum.local',
    'alice@',
    'alice@forum.local.',
    // #39 edge 3: a domain of one label (no dot) or a numeric top level is no mailbox a message can reach
    'a@b',
    'ann@localhost',
    'ann@127.0.0.1',
    'ann@example.123',
    'alice@forum..local',
    'alice@@forum.local',
    'al@ice@forum.local',
    'ali ce@forum.local',
    'alice@forum.local\u0000',
    'alice\u200b@forum.local',
    'alice\u202e@forum.local',
    'alice\ud800@forum.local',
    `${'a'.repeat(65)}@forum.local`,
    `alice@${'b'.repeat(64)}.local`,
    `${'a'.repeat(60)}@${'b.'.repeat(100)}local`.slice(0, EMAIL_MAX + 1),
  ])('refuses %j', (email) => {
    expect(isEmail(email)).toBe(false);
  });
});
