import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Page } from './pages/index.ts';

/** Small helpers shared by the realm's hand-written endpoints (plain node:http). */

const FORM_LIMIT_BYTES = 16 * 1024;

/**
 * The body, or null when it is larger than `limit`. Past the limit the rest is read and dropped,
 * not the connection torn down, so the client gets the page that says what went wrong.
 */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      req.off('data', onData).off('end', onEnd).off('error', reject);
      req.resume();
      resolve(null);
    };
    const onEnd = () => resolve(Buffer.concat(chunks));
    req.on('data', onData).on('end', onEnd).on('error', reject);
  });
}

function mediaType(req: IncomingMessage): string {
  return String(req.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
}

export type FormBody = { ok: true; form: URLSearchParams } | { ok: false; reason: 'type' | 'size' };

/** An urlencoded form body, or why not. */
export async function readFormBody(req: IncomingMessage): Promise<FormBody> {
  if (mediaType(req) !== 'application/x-www-form-urlencoded') return { ok: false, reason: 'type' };
  const body = await readBody(req, FORM_LIMIT_BYTES);
  return body ? { ok: true, form: new URLSearchParams(body.toString('utf8')) } : { ok: false, reason: 'size' };
}

/** An urlencoded form body, or null (other type, too large). */
export async function readForm(req: IncomingMessage): Promise<URLSearchParams | null> {
  const body = await readFormBody(req);
  return body.ok ? body.form : null;
}

export type JsonBody = { ok: true; value: unknown } | { ok: false; reason: 'type' | 'size' | 'syntax' };

export async function readJson(req: IncomingMessage, limit = 64 * 1024): Promise<JsonBody> {
  if (mediaType(req) !== 'application/json') return { ok: false, reason: 'type' };
  const body = await readBody(req, limit);
  if (!body) return { ok: false, reason: 'size' };
  try {
    return { ok: true, value: JSON.parse(body.toString('utf8')) as unknown };
  } catch {
    return { ok: false, reason: 'syntax' };
  }
}

export function sendPage(res: ServerResponse, page: Page, options: { framed?: boolean } = {}) {
  res.statusCode = page.status;
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Security-Policy', page.csp);
  // a page the forum frames says where in its CSP (frame-ancestors) and, for older browsers, here; the others are never framed
  res.setHeader('X-Frame-Options', options.framed ? 'SAMEORIGIN' : 'DENY');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.end(page.html);
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.end(JSON.stringify(body));
}

export function redirect(res: ServerResponse, location: string, status = 303) {
  res.statusCode = status;
  res.setHeader('Location', location);
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Length', '0');
  res.end();
}

export function methodNotAllowed(res: ServerResponse, allow: string) {
  res.statusCode = 405;
  res.setHeader('Allow', allow);
  res.end();
}

export function appendVary(res: ServerResponse, field: string) {
  const current = String(res.getHeader('Vary') ?? '');
  if (!current.split(',').some((v) => v.trim().toLowerCase() === field.toLowerCase())) {
    res.setHeader('Vary', current ? `${current}, ${field}` : field);
  }
}

export function readCookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of String(req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Adds a Set-Cookie line (keeps the ones already set, e.g. by oidc-provider). HttpOnly and SameSite=Lax always. */
export function setCookie(res: ServerResponse, name: string, value: string, options: { path: string; maxAgeSeconds: number; secure: boolean }) {
  const line = [
    `${name}=${value}`,
    `Path=${options.path}`,
    `Max-Age=${options.maxAgeSeconds}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(options.secure ? ['Secure'] : []),
  ].join('; ');
  const current = res.getHeader('Set-Cookie');
  const lines = current === undefined ? [] : Array.isArray(current) ? current : [String(current)];
  res.setHeader('Set-Cookie', [...lines, line]);
}

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/;

/** The peer of this connection is this machine, and no proxy says it forwarded the request. */
export function isLocalRequest(req: IncomingMessage): boolean {
  if (req.headers['x-forwarded-for'] !== undefined || req.headers.forwarded !== undefined) return false;
  return LOOPBACK.test(req.socket.remoteAddress ?? '');
}
