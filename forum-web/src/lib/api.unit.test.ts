import { describe, expect, it } from 'vitest';
import { WrittenPosition } from '@forum/contracts';
import { apiBaseUrl } from './api';

describe('WrittenPosition', () => {
  it('keeps the position furthest on in log order (transaction first), whatever order answers come in', () => {
    const written = new WrittenPosition();
    expect(written.get()).toBeNull();
    written.saw('812.15');
    written.saw('811.99'); // an older transaction, though a higher position
    expect(written.get()).toBe('812.15');
    written.saw('812.16');
    expect(written.get()).toBe('812.16');
    written.saw('900.3');
    expect(written.get()).toBe('900.3');
  });

  it('ignores answers without a position or with a malformed one', () => {
    const written = new WrittenPosition();
    written.saw(null);
    written.saw(undefined);
    written.saw('not a position');
    expect(written.get()).toBeNull();
  });
});

describe('apiBaseUrl', () => {
  it('is absolute, under /api of the page origin', () => {
    expect(apiBaseUrl('http://127.0.0.1:3000')).toBe('http://127.0.0.1:3000/api');
  });
});
