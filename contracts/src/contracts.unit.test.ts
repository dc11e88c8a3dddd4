import { describe, expect, it } from 'vitest';
import { passwordProblem, summarize } from './constants.ts';
import { compareLogPositions, parsePositionToken, positionToken } from './position.ts';

describe('summarize', () => {
  it('keeps a description of 80 characters or fewer as it is', () => {
    expect(summarize('a'.repeat(80))).toBe('a'.repeat(80));
  });
  it("cuts a longer one at 80 characters and adds '...'", () => {
    expect(summarize('b'.repeat(81))).toBe('b'.repeat(80) + '...');
  });
  it('counts characters, not UTF-16 units', () => {
    expect(summarize('😀'.repeat(81))).toBe('😀'.repeat(80) + '...');
  });
});

describe('passwordProblem (spec §5, in order)', () => {
  it.each([
    ['Ab!', 'Password should be more 8 character'],
    ['abcdefg!', 'Password must 1 uppercase letter.'],
    ['ABCDEFG!', 'Password must 1 lowercase letter.'],
    ['Abcdefgh', 'Password must 1 special character.'],
    ['Forum#2026', null],
  ])('%s → %s', (password, problem) => {
    expect(passwordProblem(password)).toBe(problem);
  });
});

describe('position tokens', () => {
  it('round-trip and order by transaction id first', () => {
    const a = { transactionId: 10n, globalPosition: 900n };
    const b = { transactionId: 11n, globalPosition: 5n };
    expect(parsePositionToken(positionToken(a))).toEqual(a);
    expect(compareLogPositions(a, b)).toBe(-1);
    expect(parsePositionToken('1.2.3')).toBeNull();
    expect(parsePositionToken('x')).toBeNull();
  });
});
