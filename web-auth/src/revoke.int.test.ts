import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { revokeRefreshToken } from './revoke.ts';

/** Sign-out's revocation against a real HTTP server standing in for the realm: what it sends, and that it never holds sign-out up. */
let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A server whose every request is read, then handed to `answer` (which may leave it unanswered). */
function realm(answer: (req: IncomingMessage, body: string, res: ServerResponse) => void): Promise<string> {
  return new Promise((resolve) => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => answer(req, body, res));
    }).listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server!.address() as AddressInfo).port}`));
  });
}

describe('revokeRefreshToken', () => {
  it("posts the refresh token to the realm's revocation endpoint as the app's public client", async () => {
    const seen: Array<{ method?: string; url?: string; type?: string; body: string }> = [];
    const url = await realm((req, body, res) => {
      seen.push({ method: req.method, url: req.url, type: req.headers['content-type'], body });
      res.end();
    });
    await revokeRefreshToken({ url: `${url}/`, realm: 'forum', clientId: 'forum-web' }, 'the-refresh-token');
    expect(seen).toEqual([
      {
        method: 'POST',
        url: '/realms/forum/protocol/openid-connect/revoke',
        type: 'application/x-www-form-urlencoded',
        body: 'client_id=forum-web&token=the-refresh-token&token_type_hint=refresh_token',
      },
    ]);
  });

  it('sends nothing without a refresh token', async () => {
    const seen: string[] = [];
    const url = await realm((req, _body, res) => {
      seen.push(String(req.url));
      res.end();
    });
    await revokeRefreshToken({ url, realm: 'forum', clientId: 'forum-web' }, undefined);
    expect(seen).toEqual([]);
  });

  it('goes on when the realm does not answer in time, or cannot be reached', async () => {
    const url = await realm(() => {});
    const started = Date.now();
    await revokeRefreshToken({ url, realm: 'forum', clientId: 'forum-web' }, 'token', 300);
    expect(Date.now() - started).toBeLessThan(3000);
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = undefined;
    await expect(revokeRefreshToken({ url, realm: 'forum', clientId: 'forum-web' }, 'token', 300)).resolves.toBeUndefined();
  });
});
