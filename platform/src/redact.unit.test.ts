import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.ts';
import { redactSecrets, SECRET_PARAMETERS } from './redact.ts';

const JWT = 'eyJhbGciOiJSUzI1NiIsImtpZCI6IjEifQ.eyJzdWIiOiJhbGljZSIsImVtYWlsIjoiYUBiLmMifQ.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg';

describe('redactSecrets', () => {
  it.each([
    ['/realms/forum/login-actions/action-token?key=Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MA', '/realms/forum/login-actions/action-token?key=…'],
    ['/realms/forum/login-actions/verify-email?key=abc123def456&x=1', '/realms/forum/login-actions/verify-email?key=…&x=1'],
    ['/about?code=c0de-of-the-sign-in&state=st4te&session_state=not-a-secret', '/about?code=…&state=…&session_state=not-a-secret'],
    ['/#state=s&code=c&iss=http%3A%2F%2Fx', '/#state=…&code=…&iss=http%3A%2F%2Fx'],
    ['/api/stream?topics=me&ticket=secret.123.sig&x=1', '/api/stream?topics=me&ticket=…&x=1'],
    [
      '/realms/forum/protocol/openid-connect/logout?id_token_hint=opaque-hint&client_id=forum-web',
      '/realms/forum/protocol/openid-connect/logout?id_token_hint=…&client_id=forum-web',
    ],
    ['grant_type=refresh_token&refresh_token=r3fr3sh&client_id=forum-web', 'grant_type=refresh_token&refresh_token=…&client_id=forum-web'],
    ['csrf=c5rf&email=a%40b.c&password=Secret%232026&password-confirm=Secret%232026', 'csrf=…&email=a%40b.c&password=…&password-confirm=…'],
    ['token=t0k3n&token_type_hint=refresh_token', 'token=…&token_type_hint=refresh_token'],
    ['code_verifier=v3r1f13r&client_secret=s3cr3t&login_hint=a%40b.c', 'code_verifier=…&client_secret=…&login_hint=…'],
    ['?KEY=upper&Code=mixed', '?KEY=…&Code=…'],
  ])('writes %s as %s', (line, expected) => {
    expect(redactSecrets(line)).toBe(expected);
  });

  it('leaves names that only end like a secret parameter, and values that are not parameters', () => {
    for (const line of [
      '/x?monkey=1&barcode=2&session_state=3&my.key=4&postcode=5',
      '{"code":"23505","state":"running","key":"post:1"}',
      'Page must be a number',
    ]) {
      expect(redactSecrets(line)).toBe(line);
    }
  });

  it('writes a JSON Web Token under any name, a bearer token in text, and the credential headers of JSON as …', () => {
    expect(redactSecrets(`{"msg":"refused ${JWT} here"}`)).toBe('{"msg":"refused … here"}');
    expect(redactSecrets('Authorization: Bearer abcdefghijklmnop0123')).toBe('Authorization: Bearer …');
    expect(redactSecrets('A valid bearer token is required')).toBe('A valid bearer token is required');
    expect(
      redactSecrets(
        '{"headers":{"authorization":"Basic YWxpY2U6c2VjcmV0","cookie":"forum_idp_session=s; forum_idp_session.sig=x","set-cookie":["a=1","b=2"],"accept":"*/*"}}',
      ),
    ).toBe('{"headers":{"authorization":"…","cookie":"…","set-cookie":"…","accept":"*/*"}}');
  });

  it('keeps a JSON line valid JSON', () => {
    const line = JSON.stringify({ req: { url: `/about?code=x&state=y`, hint: JWT }, headers: { cookie: 'a="q\\"uoted"' } });
    expect((): unknown => JSON.parse(redactSecrets(line))).not.toThrow();
  });

  it('names each parameter once', () => {
    expect(new Set(SECRET_PARAMETERS).size).toBe(SECRET_PARAMETERS.length);
  });
});

describe("a logger's lines", () => {
  const capture = (format: 'json' | 'pretty') => {
    const lines: string[] = [];
    const destination = new Writable({ write: (chunk, _encoding, done) => (lines.push(String(chunk)), done()) });
    return { lines, logger: createLogger('redact-test', 'info', { format, destination }) };
  };

  it('leave with their secrets written …, in JSON and pretty, through children and in errors', () => {
    for (const format of ['json', 'pretty'] as const) {
      const { lines, logger } = capture(format);
      logger.child({ req: { method: 'GET', url: '/realms/forum/login-actions/action-token?key=the-reset-key-0123' } }).info('request completed');
      logger.error({ err: Object.assign(new Error(`fetch failed for /cb?code=the-code-0123&state=s`), { token: JWT }) }, 'upstream sign-in failed');
      const written = lines.join('');
      expect(written).toContain('key=…');
      expect(written).toContain('code=…');
      for (const secret of ['the-reset-key-0123', 'the-code-0123', JWT]) expect(written).not.toContain(secret);
    }
  });
});
