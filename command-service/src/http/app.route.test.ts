import { gzipSync } from 'node:zlib';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { anError, commandApiSpec, member, registered, visitor, withAuthorization } from '../testing/index.ts';

/**
 * What every command route shares (app.ts and the platform's HTTP server): the token check, how a
 * body is read, and the order of the checks (the body is read first, then the token, then the input).
 */
const api = commandApiSpec();
const alice = member('Alice');
const post = { title: 'A post', description: 'Some text', tags: [] };

describe('the token', () => {
  it.each([
    ['no token', visitor, 'A valid bearer token is required'],
    ['a token that is no JWT', withAuthorization('Bearer not.a.jwt'), 'The token is not valid'],
    ['another scheme', withAuthorization('Basic YWxpY2U6c2VjcmV0'), 'The Authorization header must be "Bearer <token>"'],
    ['an expired token', alice.withToken({ expiresIn: -60 }), 'The token has expired'],
    ['a token for another audience', alice.withToken({ audience: 'account' }), 'The token is not valid'],
    ['a token of another issuer', alice.withToken({ issuer: 'http://evil.test/realms/forum' }), 'The token is not valid'],
    ['a token signed by another key', alice.withToken({ foreignKey: true }), 'The token is not valid'],
  ])('refuses %s with 401 UNAUTHENTICATED and appends nothing', async (_case, caller, message) => {
    await api.when(caller.post('/api/posts', post)).then(401, { error: { code: 'UNAUTHENTICATED', message } });
  });

  it('refuses a token whose claims were changed after signing (an email made an admin’s) with 401', async () => {
    const token = await api.issuer.sign(alice);
    const [header, , signature] = token.split('.');
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...decodeJwt(token), email: 'admin@forum.local' })).toString('base64url')}.${signature}`;
    await api.when(withAuthorization(`Bearer ${forged}`).post('/api/posts', post)).then(401, anError('UNAUTHENTICATED', { message: 'The token is not valid' }));
  });
});

describe('the body', () => {
  it(`refuses one over the body limit with 413 PAYLOAD_TOO_LARGE`, async () => {
    await api.when(alice.post('/api/posts', { ...post, description: 'x'.repeat(200_000) })).then(413, anError('PAYLOAD_TOO_LARGE'));
  });

  it.each([
    ['application/json; charset=latin1', '/api/posts'],
    ['application/json; charset=utf-16', '/api/comments'],
    ['text/plain', '/api/posts'],
    ['application/x-www-form-urlencoded', '/api/admin/tags'],
  ])('refuses %s to %s with 415 UNSUPPORTED_MEDIA_TYPE', async (type, path) => {
    await api.when(alice.send('POST', path, JSON.stringify(post), type)).then(415, anError('UNSUPPORTED_MEDIA_TYPE'));
  });

  it('reads UTF-8 JSON named any way, and a gzip-encoded body', async () => {
    for (const type of ['application/json; charset=utf-8', 'application/json; charset="UTF-8"', 'application/json']) {
      await api.when(alice.send('POST', '/api/posts', JSON.stringify(post), type)).then(201);
    }
    await api.when(alice.send('POST', '/api/posts', gzipSync(JSON.stringify(post)), 'application/json', { headers: { 'content-encoding': 'gzip' } })).then(201);
    await api
      .when(alice.send('POST', '/api/posts', gzipSync(JSON.stringify(post)), 'application/json', { headers: { 'content-encoding': 'x-gzip' } }))
      .then(415, anError('UNSUPPORTED_MEDIA_TYPE'));
  });

  it('is read before the token is checked, and the token before the input: 415 for a visitor, 401 for a visitor with a bad body', async () => {
    await api.when(visitor.send('POST', '/api/posts', JSON.stringify(post), 'text/plain')).then(415);
    await api.when(visitor.post('/api/posts', { title: '' })).then(401);
  });
});

describe('the paths', () => {
  it('answers an unknown command route with 404 NOT_FOUND and no stack trace', async () => {
    await api.when(alice.delete('/api/nothing-here')).then(404, { error: { code: 'NOT_FOUND', message: 'No such endpoint' } });
  });

  it('match without regard to a trailing slash or letter case', async () => {
    await api.given(registered(alice));
    await api.when(alice.post('/API/Posts', post)).then(201);
    await api.when(alice.post('/api/posts/', post)).then(201);
  });
});

describe('answers', () => {
  it('carry the request id, and take the caller’s X-Request-Id when it is one', async () => {
    const { headers } = await api.when(alice.post('/api/posts', post, { headers: { 'X-Request-Id': 'req-42' } })).then(201);
    expect(headers['x-request-id']).toBe('req-42');
  });
});
