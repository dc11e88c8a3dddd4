import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { clientAddress } from './http.ts';

const from = (remoteAddress: string, forwardedFor?: string) =>
  ({ socket: { remoteAddress }, headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {} }) as unknown as IncomingMessage;

describe('clientAddress: what the throttles count', () => {
  it.each([
    ['127.0.0.2', '127.0.0.2'],
    ['::ffff:203.0.113.9', '203.0.113.9'],
    // one subscriber gets a whole /64: every address in it is one client
    ['2001:db8:1:2:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:DB8:0001:0002:0:0:0:ffff', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
  ])('%s counts as %s', (peer, counted) => {
    expect(clientAddress(from(peer), false)).toBe(counted);
  });

  it('takes the last X-Forwarded-For entry behind a trusted proxy, grouped the same way', () => {
    expect(clientAddress(from('10.0.0.1', '198.51.100.7, 2001:db8:5:6:7:8:9:a'), true)).toBe('2001:db8:5:6::/64');
    expect(clientAddress(from('10.0.0.1', '198.51.100.7'), false)).toBe('10.0.0.1');
  });
});
