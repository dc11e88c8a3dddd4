import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { unsubscribeTokens } from './unsubscribe-token.ts';

describe('unsubscribe tokens', () => {
  const tokens = unsubscribeTokens(randomBytes(32));

  it('stand for the member and kinds they were signed for', () => {
    const token = tokens.sign({ userId: 'u-alice', kinds: ['reply', 'mention', 'reply'] });
    expect(tokens.verify(token)).toEqual({ userId: 'u-alice', kinds: ['reply', 'mention'] });
  });

  it('refuse a token of another secret, an altered payload or signature, a cut one and garbage', () => {
    const token = tokens.sign({ userId: 'u-alice', kinds: ['reply'] });
    const [payload, signature] = token.split('.') as [string, string];
    const forged = Buffer.from(JSON.stringify({ u: 'u-bob', k: ['reply'] })).toString('base64url');
    expect(unsubscribeTokens(randomBytes(32)).verify(token)).toBeNull();
    expect(tokens.verify(`${forged}.${signature}`)).toBeNull();
    expect(tokens.verify(`${payload}.${signature.slice(0, -2)}`)).toBeNull();
    expect(tokens.verify(`${payload}.${signature}x`)).toBeNull();
    expect(tokens.verify(payload)).toBeNull();
    expect(tokens.verify(`${token}.more`)).toBeNull();
    expect(tokens.verify('')).toBeNull();
    expect(tokens.verify('%%%.%%%')).toBeNull();
  });

  it('refuse a signed payload that names no member or a kind that does not exist', () => {
    const secret = randomBytes(32);
    const signer = unsubscribeTokens(secret);
    const bad = signer.sign({ userId: '', kinds: ['reply'] });
    expect(signer.verify(bad)).toBeNull();
    expect(signer.verify(signer.sign({ userId: 'u', kinds: [] }))).toBeNull();
  });
});
