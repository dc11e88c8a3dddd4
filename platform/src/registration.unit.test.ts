import { ANONYMOUS_NAME } from '@forum/contracts';
import { describe, expect, it } from 'vitest';
import { registeredAs } from './registration.ts';

const listed = new Set(['chief@forum.test']);
const claims = { email: 'Chief@Forum.test', emailVerified: true, name: '  Chief  ', photoURL: 'https://img.example/c.png' };

describe('registeredAs: what a registration records from the token (both sides use it)', () => {
  it('takes the email in lower case, the name trimmed, the photo as given, and admin for a verified listed address', () => {
    expect(registeredAs(claims, listed)).toEqual({ email: 'chief@forum.test', name: 'Chief', photoURL: 'https://img.example/c.png', role: 'admin' });
  });

  it('makes no admin of an unverified or unlisted address, and calls a member without a name Anonymous', () => {
    expect(registeredAs({ ...claims, emailVerified: false }, listed).role).toBe('user');
    expect(registeredAs({ ...claims, email: 'other@forum.test' }, listed).role).toBe('user');
    expect(registeredAs({ ...claims, name: '   ' }, listed).name).toBe(ANONYMOUS_NAME);
  });
});
