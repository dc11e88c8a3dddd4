import { randomBytes } from 'node:crypto';
import { ERROR_STATUS, HEADER_EVENT_POSITION, HEADER_MIN_POSITION, WrittenPosition, type Me } from '@forum/contracts';
import { createLogger, errorsOf, type ErrorCodeName, type Logger } from '@forum/platform';
import { EmbeddedConfig } from '../embedded/config.ts';
import { startForum, type RunningForum } from '../embedded/forum.ts';
import { DEMO_PASSWORD } from '../embedded/seed.ts';
import { expectStatus } from './expect-status.ts';
import { createTestDatabase } from '@forum/platform/testing';

/** An account `newUser` made. */
export interface NewUser {
  id: string;
  name: string;
  email: string;
  password: string;
  token: string;
}

export interface TestForum extends RunningForum {
  /** An access token from the password grant of client forum-cli (the same one for the same account). */
  tokenFor(email: string, password?: string): Promise<string>;
  /** A sign-in of its own (another device of the account): a new access token at each call. */
  signIn(email: string, password?: string): Promise<string>;
  /** A new account of the embedded realm (unique email) with its password and a token; the forum registers it at its first command (or `register`). */
  newUser(name: string, options?: { emailVerified?: boolean }): Promise<NewUser>;
  /**
   * Registers the holder of `token` with the forum as the apps do after sign-in (POST
   * /api/me/registration, idempotent) and answers their record once the read side has it.
   */
  register(token: string): Promise<Me>;
  /** The demo admin, signed in and registered with the forum, with their forum id. */
  demoAdmin(): Promise<{ id: string; token: string }>;
  /** Every event committed so far (the table, not a reader: no horizon in the way); or those of one type, caused by one actor when given. */
  eventCount(of?: { type: string; actorId?: string }): Promise<number>;
  /**
   * fetch against the forum, with a bearer token when `token` is given. Reads after writes as the
   * apps read (forum-web's api): a GET or HEAD without its own X-Min-Position waits for the newest
   * X-Event-Position any call of this forum answered, unless `readYourWrites` is false.
   */
  api(path: string, init?: ApiInit): Promise<Response>;
  /** One call of the API that must answer `expect` (200 when not given): its body (see expectStatus), or a failure naming the call, the status and the body. */
  call<T = unknown>(method: string, path: string, options?: CallOptions): Promise<T>;
}

export type ApiInit = RequestInit & {
  token?: string;
  json?: unknown;
  /** false: a read that does not wait for this test's writes (a visitor's first read, a cache's miss). */
  readYourWrites?: boolean;
};

export interface CallOptions {
  /** The bearer token, when the call is signed in. */
  token?: string;
  /** Sent as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
  /** The status the call must answer. */
  expect?: number;
}

/** Headers of a read that waits for `position` (the X-Event-Position of a command, see minPosition); none without one. */
export const minPositionHeaders = (position: string | undefined): Record<string, string> => (position ? { [HEADER_MIN_POSITION]: position } : {});

/**
 * The whole forum on a free port, against a fresh database of the run's PostgreSQL (or the
 * DATABASE_URL of `env`, left as it is); its log on `logger` when given (a test that reads the lines).
 */
export async function startTestForum(env: Record<string, string> = {}, options: { logger?: Logger } = {}): Promise<TestForum> {
  const database = env.DATABASE_URL ? null : await createTestDatabase('forum');
  const config = EmbeddedConfig.parse({
    PORT: '0',
    HOST: '127.0.0.1',
    ...(database && { DATABASE_URL: database.url }),
    LOG_LEVEL: process.env.TEST_LOG ?? 'silent',
    // tests write faster than people: a test that is about the limits sets its own
    WRITE_LIMITS: 'off',
    // a read after a write (X-Min-Position) waits as long as a machine busy with other tests needs
    // for the projections to apply it, not the 3 s after which a deployment answers a page anyway
    MIN_POSITION_WAIT_MS: '15000',
    // a journey can run against a build beside the usual one (FORUM_WEB_DIR, docs/configuration.md)
    ...pick(process.env, ['FORUM_WEB_DIR', 'ADMIN_WEB_DIR']),
    ...env,
  });
  // every answer of a route is held to what the route declares (the API document): stop() fails on any that is not
  const forum = await startForum(config, options.logger ?? createLogger('test-forum', config.LOG_LEVEL), { checkAnswers: true });
  const base = `http://127.0.0.1:${forum.port}`;
  const tokens = new Map<string, string>();

  const signIn = async (email: string, password = DEMO_PASSWORD) => {
    const response = await fetch(`${base}/realms/forum/protocol/openid-connect/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'password', client_id: 'forum-cli', username: email, password, scope: 'openid' }),
    });
    const body = (await response.json()) as { access_token?: string };
    if (!response.ok || !body.access_token) throw new Error(`no token for ${email}: ${response.status} ${JSON.stringify(body)}`);
    return body.access_token;
  };
  const tokenFor = async (email: string, password = DEMO_PASSWORD) => {
    const cached = tokens.get(`${email}:${password}`);
    if (cached) return cached;
    const token = await signIn(email, password);
    tokens.set(`${email}:${password}`, token);
    return token;
  };

  const written = new WrittenPosition();
  const api: TestForum['api'] = async (path, init = {}) => {
    const { token, json, readYourWrites = true, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (token) headers.set('Authorization', `Bearer ${token}`);
    if (json !== undefined) headers.set('Content-Type', 'application/json');
    const method = (rest.method ?? 'GET').toUpperCase();
    const floor = written.get();
    if (readYourWrites && floor && (method === 'GET' || method === 'HEAD') && !headers.has(HEADER_MIN_POSITION)) headers.set(HEADER_MIN_POSITION, floor);
    const response = await fetch(`${base}${path}`, { ...rest, headers, body: json !== undefined ? JSON.stringify(json) : rest.body });
    written.saw(response.headers.get(HEADER_EVENT_POSITION));
    return response;
  };

  async function register(token: string): Promise<Me> {
    const { position } = await expectStatus<{ position?: string }>(api('/api/me/registration', { method: 'POST', token }));
    return expectStatus<Me>(api('/api/me', { token, headers: minPositionHeaders(position) }));
  }

  return {
    ...forum,
    tokenFor,
    signIn,
    async newUser(name, { emailVerified = false } = {}) {
      const email = `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${randomBytes(4).toString('hex')}@forum.test`;
      const password = 'Secret#2026';
      const { id } = await forum.realm!.accounts.create({ email, password, name, emailVerified });
      return { id, name, email, password, token: await tokenFor(email, password) };
    },
    register,
    async demoAdmin() {
      const token = await tokenFor('admin@forum.local');
      return { id: (await register(token))._id, token };
    },
    async eventCount(of) {
      const { rows } = await forum.db.raw<{ rows: { n: number }[] }>(
        `SELECT count(*)::int AS n FROM eventstore.events WHERE (?::text IS NULL OR type = ?) AND (?::text IS NULL OR metadata->>'actorId' = ?)`,
        [of?.type ?? null, of?.type ?? null, of?.actorId ?? null, of?.actorId ?? null],
      );
      return rows[0]!.n;
    },
    api,
    call: (method, path, { token, body, headers, expect = 200 } = {}) =>
      expectStatus(api(path, { method, token, json: body, headers }), expect, `${method} ${path}`),
    async stop() {
      await forum.stop();
      await database?.drop();
      const undeclared = undeclaredErrors(forum);
      if (undeclared.length > 0) throw new Error(`routes answered errors they do not declare (docs/api.md#the-api-document):\n${undeclared.join('\n')}`);
      const notAsDeclared = [...forum.apps.command.answersNotAsDeclared, ...forum.apps.query.answersNotAsDeclared];
      if (notAsDeclared.length > 0) throw new Error(`routes answered otherwise than they declare (docs/api.md#the-api-document):\n${notAsDeclared.join('\n')}`);
    },
  };
}

/**
 * The errors the forum's routes answered that they do not declare (schema.errors, their contexts'
 * declareErrors, API_ERRORS), or with another status than ERROR_STATUS's: what the API document,
 * made from the declarations, would not list.
 */
function undeclaredErrors(forum: RunningForum): string[] {
  const found = new Set<string>();
  for (const app of [forum.apps.command, forum.apps.query])
    for (const { route, status, code } of app.errorsAnswered) {
      const declared = errorsOf(app.schemaOf(route)) as string[];
      if (!declared.includes(code) || ERROR_STATUS[code as ErrorCodeName] !== status) found.add(`${route}: ${status} ${code}`);
    }
  return [...found];
}

function pick(source: NodeJS.ProcessEnv, keys: readonly string[]): Record<string, string> {
  return Object.fromEntries(keys.flatMap((key) => (source[key] ? [[key, source[key]]] : [])));
}
