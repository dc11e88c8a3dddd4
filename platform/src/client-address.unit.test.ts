import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { clientAddress, TrustProxy } from './client-address.ts';

const request = (peer: string, forwardedFor?: string) =>
  ({ socket: { remoteAddress: peer }, headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor } }) as unknown as IncomingMessage;

describe('the client address limits count against', () => {
  it('is the TCP peer when no proxy is trusted, whatever X-Forwarded-For says', () => {
    const none = TrustProxy.parse(undefined);
    expect(clientAddress(request('203.0.113.7', '198.51.100.1'), none)).toBe('203.0.113.7');
    expect(clientAddress(request('::ffff:203.0.113.7'), none)).toBe('203.0.113.7');
  });

  it('is the address the trusted proxy saw: the last X-Forwarded-For entry for one hop, never one a client wrote before it', () => {
    const oneHop = TrustProxy.parse('1');
    expect(clientAddress(request('10.0.0.2', 'spoofed, 198.51.100.9'), oneHop)).toBe('198.51.100.9');
    expect(clientAddress(request('10.0.0.2'), oneHop)).toBe('10.0.0.2');
  });

  it('trusts proxies by subnet (loopback, private ranges, CIDRs)', () => {
    const subnets = TrustProxy.parse('loopback, 10.0.0.0/8');
    expect(clientAddress(request('127.0.0.1', '198.51.100.9, 10.1.2.3'), subnets)).toBe('198.51.100.9');
    // a peer that is not a trusted proxy is the client itself
    expect(clientAddress(request('203.0.113.7', '198.51.100.9'), subnets)).toBe('203.0.113.7');
  });

  it.each([
    ['2001:db8:1:2:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::9', '2001:db8:1:2::/64'],
    ['2001:DB8:0001:0002:0:0:0:ffff', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
  ])('counts the IPv6 client %s by its /64 (%s): one subscriber holds a whole /64', (peer, counted) => {
    expect(clientAddress(request(peer), TrustProxy.parse(undefined))).toBe(counted);
  });

  it('groups a forwarded IPv6 client the same way', () => {
    expect(clientAddress(request('10.0.0.1', '198.51.100.7, 2001:db8:5:6:7:8:9:a'), TrustProxy.parse('1'))).toBe('2001:db8:5:6::/64');
  });

  it('refuses a setting that is neither off, a hop count nor addresses', () => {
    expect(TrustProxy.safeParse('lots').success).toBe(false);
    expect(TrustProxy.safeParse('-1').success).toBe(false);
  });
});
