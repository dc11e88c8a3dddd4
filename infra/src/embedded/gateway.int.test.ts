import { request } from 'node:http';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { CSP_NONCE_PLACEHOLDER } from '@forum/contracts';
import { API_DOCUMENT_PATH } from '@forum/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../testing/forum.ts';
import { cspNonce } from '../testing/security-headers.ts';

/**
 * The gateway's own answers over real HTTP (security-headers.int.test.ts checks their headers of
 * security): the web apps' files (cached by kind, compressed copies for browsers that accept
 * them), their pages and the API's JSON gzipped for browsers that accept it, the answer while an app is not built, and /api's not-found, never a page.
 * forum-web is the usual build; admin-web is served from a folder that is empty until a test builds it.
 */
const forumWebDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../forum-web/dist');
let forum: TestForum;
let adminDir: string;

beforeAll(async () => {
  adminDir = await mkdtemp(path.join(os.tmpdir(), 'forum-gateway-admin-'));
  forum = await startTestForum({ ADMIN_WEB_DIR: adminDir });
});
afterAll(async () => {
  await forum?.stop();
  await rm(adminDir, { recursive: true, force: true });
});

/** One answer with its body as sent (fetch would undo the Content-Encoding). */
function get(
  urlPath: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const sent = request(`http://127.0.0.1:${forum.port}${urlPath}`, { method, headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => resolve({ status: answer.statusCode!, headers: answer.headers, body: Buffer.concat(chunks) }));
      answer.on('error', reject);
    });
    sent.on('error', reject);
    sent.end();
  });
}

/** The status and headers of an answer that does not end (the change stream); the connection is closed once they came. */
function streamHeaders(urlPath: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const sent = request(`http://127.0.0.1:${forum.port}${urlPath}`, { headers }, (answer) => {
      resolve({ status: answer.statusCode!, headers: answer.headers });
      answer.destroy();
    });
    sent.on('error', reject);
    sent.end();
  });
}

/** The largest of the scripts forum-web's index.html names (its entry's chunk). */
async function mainScript(): Promise<string> {
  const html = await readFile(path.join(forumWebDist, 'index.html'), 'utf8');
  const scripts = await Promise.all(
    [...html.matchAll(/<script type="module" crossorigin src="([^"]+)"/g)].map(async ([, src]) => ({
      src: src!,
      size: (await stat(path.join(forumWebDist, src!))).size,
    })),
  );
  return scripts.sort((a, b) => b.size - a.size)[0]!.src;
}

describe('the web apps’ files', () => {
  it('sends a hashed asset for a year, immutable, as the build’s brotli or gzip copy when the browser accepts one', async () => {
    const script = await mainScript();
    const plain = await readFile(path.join(forumWebDist, script));
    const asIs = await get(script);
    expect(asIs.status).toBe(200);
    expect(asIs.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asIs.headers['content-encoding']).toBeUndefined();
    expect(asIs.headers['vary']).toMatch(/accept-encoding/i);
    expect(asIs.body.equals(plain)).toBe(true);

    const brotli = await get(script, { 'Accept-Encoding': 'gzip, deflate, br' });
    expect([brotli.status, brotli.headers['content-encoding'], brotli.headers['content-type']]).toEqual([200, 'br', asIs.headers['content-type']]);
    expect(asIs.headers['content-type']).toMatch(/^(text|application)\/javascript; charset=utf-8$/);
    expect(brotli.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(brotli.body).equals(plain)).toBe(true);

    const gzip = await get(script, { 'Accept-Encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).equals(plain)).toBe(true);
    // what a browser downloads of forum-web's entry script
    expect(brotli.body.length).toBeLessThan(gzip.body.length);
    expect(gzip.body.length).toBeLessThan(plain.length / 2);
  });

  it('sends the other files for an hour, and a missing asset or the assets folder as 404, not as a page', async () => {
    const favicon = await get('/favicon.svg');
    expect([favicon.status, favicon.headers['cache-control']]).toEqual([200, 'public, max-age=3600']);
    for (const missing of ['/assets/missing.js', '/assets', '/assets/']) {
      const answer = await get(missing);
      expect([answer.status, answer.headers['content-type']], missing).toEqual([404, 'application/json; charset=utf-8']);
    }
  });

  it('sends the API’s JSON of 1 KiB or more gzipped to a browser that accepts it, a smaller answer as it is, and never holds the change stream back', async () => {
    // the API document: some hundreds of KiB of JSON
    const plain = await get(API_DOCUMENT_PATH);
    expect([plain.status, plain.headers['content-encoding']]).toEqual([200, undefined]);
    const gzip = await get(API_DOCUMENT_PATH, { 'Accept-Encoding': 'gzip, deflate, br' });
    expect([gzip.status, gzip.headers['content-encoding'], gzip.headers['content-type']]).toEqual([200, 'gzip', 'application/json; charset=utf-8']);
    expect(gzip.headers['vary']).toMatch(/accept-encoding/i);
    expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);
    expect(gzip.body.length).toBeLessThan(plain.body.length / 4);

    const small = await get('/api/tags', { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(small.status).toBe(200);
    expect(small.body.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body.toString('utf8'))).toBeInstanceOf(Array);

    const stream = await streamHeaders('/api/stream?topics=posts', { 'Accept-Encoding': 'gzip, deflate, br' });
    expect([stream.status, stream.headers['content-type'], stream.headers['content-encoding']]).toEqual([200, 'text/event-stream; charset=utf-8', undefined]);
  });
});

describe('the web apps’ pages', () => {
  it('answers every other GET with index.html, never cached, its nonce the one its CSP names, gzipped for a browser that accepts it from 1 KiB on', async () => {
    let homeSize = 0;
    for (const page of ['/', '/index.html', '/about', '/dashboard/profile?tab=posts', '/.sources-sha256']) {
      const answer = await get(page, { 'Accept-Encoding': 'gzip, br' });
      expect([answer.status, answer.headers['content-type'], answer.headers['cache-control']], page).toEqual([200, 'text/html; charset=utf-8', 'no-store']);
      const plain = await get(page);
      expect(plain.headers['content-encoding'], page).toBeUndefined();
      if (page === '/') homeSize = plain.body.length;
      // a public page comes rendered (kilobytes); the app's page for the others is its bare index.html
      expect(answer.headers['content-encoding'], page).toBe(plain.body.length >= 1024 ? 'gzip' : undefined);
      const nonce = cspNonce(new Headers(answer.headers as Record<string, string>));
      const html = (answer.headers['content-encoding'] === 'gzip' ? gunzipSync(answer.body) : answer.body).toString('utf8');
      expect(html, page).not.toContain(CSP_NONCE_PLACEHOLDER);
      expect(html, page).toContain(`<meta property="csp-nonce" nonce="${nonce}">`);
    }
    // the home page at least, which comes rendered
    expect(homeSize).toBeGreaterThanOrEqual(1024);
  });

  it('answers an app that is not built with 503 and what to run, then serves it once it is built', async () => {
    const answer = await get('/admin/');
    expect([answer.status, answer.headers['content-type'], answer.body.toString()]).toEqual([
      503,
      'text/plain; charset=utf-8',
      'admin-web is not built: run "npm run build:web" (npm start does it for you).',
    ]);
    await writeFile(path.join(adminDir, 'index.html'), `<meta property="csp-nonce" nonce="${CSP_NONCE_PLACEHOLDER}"><p>console</p>`);
    const built = await get('/admin/users');
    expect(built.status).toBe(200);
    expect(built.body.toString()).toBe(`<meta property="csp-nonce" nonce="${cspNonce(new Headers(built.headers as Record<string, string>))}"><p>console</p>`);
  });

  it('moves /admin to /admin/ permanently, with its query', async () => {
    for (const [from, to] of [
      ['/admin', '/admin/'],
      ['/admin?next=users', '/admin/?next=users'],
    ]) {
      const answer = await get(from!);
      expect([answer.status, answer.headers.location], from).toEqual([301, to]);
    }
  });
});

describe('/api', () => {
  it('answers an unknown path with the API’s 404, never an app’s page, whatever the method', async () => {
    for (const [method, unknown] of [
      ['GET', '/api/unknown'],
      ['GET', '/api/posts/a/b/c'],
      ['GET', '/api'],
      ['HEAD', '/api/unknown'],
      ['DELETE', '/api/unknown'],
    ] as const) {
      const answer = await get(unknown, {}, method);
      expect([answer.status, answer.headers['content-type']], `${method} ${unknown}`).toEqual([404, 'application/json; charset=utf-8']);
      if (method !== 'HEAD')
        expect(JSON.parse(answer.body.toString()), `${method} ${unknown}`).toEqual({ error: { code: 'NOT_FOUND', message: 'No such endpoint' } });
    }
  });
});
