import { describe, expect, it } from 'vitest';
import { clientKey } from './client-address.ts';

describe('clientKey', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['::ffff:10.0.0.7', '10.0.0.7'],
    ['2001:db8:85a3:1:2:3:4:5', '2001:db8:85a3:1::/64'],
    ['2001:db8:85a3:1::9', '2001:db8:85a3:1::/64'],
    ['2001:0db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    [undefined, 'unknown'],
  ])('keys %s as %s', (address, key) => {
    expect(clientKey(address)).toBe(key);
  });
});
