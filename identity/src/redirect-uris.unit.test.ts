import { describe, expect, it } from 'vitest';
import { isUnderPrefix } from './redirect-uris.ts';

const forum = new URL('https://forum.example/');
const admin = new URL('https://forum.example/admin/');

describe('isUnderPrefix', () => {
  it('accepts a canonical URL under the prefix', () => {
    expect(isUnderPrefix('https://forum.example/posts/1?x=1', forum)).toBe(true);
    expect(isUnderPrefix('https://forum.example/admin/users', admin)).toBe(true);
  });

  it('refuses another path, origin, credentials or the realm itself', () => {
    expect(isUnderPrefix('https://forum.example/posts', admin)).toBe(false);
    expect(isUnderPrefix('https://evil.example/', forum)).toBe(false);
    expect(isUnderPrefix('https://user:pw@forum.example/', forum)).toBe(false);
    expect(isUnderPrefix('https://forum.example/realms/forum/account', forum)).toBe(false);
  });

  it('refuses what is not a string, too long, or not canonical', () => {
    expect(isUnderPrefix(42, forum)).toBe(false);
    expect(isUnderPrefix(`https://forum.example/${'a'.repeat(2048)}`, forum)).toBe(false);
    expect(isUnderPrefix('https://forum.example/a/../b', forum)).toBe(false);
    expect(isUnderPrefix('https://forum.example:443/', forum)).toBe(false);
  });

  it('refuses whitespace, backslashes, fragments and control characters anywhere', () => {
    for (const odd of [' ', '\t', '\\', '#', '\u0000', '\u0001', '\u001f', '\u007f', '\u0085', '\u009f']) {
      expect(isUnderPrefix(`https://forum.example/a${odd}b`, forum), JSON.stringify(odd)).toBe(false);
      expect(isUnderPrefix(`https://forum.example/a?q=${odd}`, forum), JSON.stringify(odd)).toBe(false);
    }
  });
});
