import { describe, expect, it } from 'vitest';
import { passwordProblem } from './constants.ts';
import { eventDefinitions, POST_HISTORY_TYPES } from './events/index.ts';
import { compareLogPositions, parsePositionToken, positionToken } from './position.ts';
import { postTopic, StreamQuery } from './http/stream.ts';

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

describe('POST_HISTORY_TYPES', () => {
  it('each names its post in data.postId, as the event store indexes it', () => {
    for (const type of POST_HISTORY_TYPES) {
      const { shape } = eventDefinitions[type].schema;
      expect(shape, type).toHaveProperty('postId');
      expect(shape.postId.safeParse('not a uuid').success, type).toBe(false);
    }
  });
});

describe("a post page's stream topic", () => {
  it('is one the stream takes, whatever case the address gave the id in', () => {
    const id = '0f8fad5b-d9cb-469f-a165-70867728950e';
    expect(postTopic(id.toUpperCase())).toBe(`post:${id}`);
    expect(StreamQuery.safeParse({ topics: postTopic(id.toUpperCase()) }).success).toBe(true);
  });
});
