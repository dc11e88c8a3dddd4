import { ERROR_STATUS, HEADER_EVENT_POSITION, normalizeEmail, START, type ErrorBody, type EventMetadata, type LogPosition } from '@forum/contracts';
import type { FastifySchema, LightMyRequestResponse } from 'fastify';
import type { EventStore } from '@forum/eventstore';
import { createMemoryEventStore } from '@forum/eventstore/memory';
import { randomBytes } from 'node:crypto';
import {
  answerMismatch,
  createLogger,
  errorsOf,
  unsubscribeTokens,
  type ErrorCodeName,
  type HttpServer,
  type ProxyTrust,
  type UnsubscribeTokens,
} from '@forum/platform';
import { anyString, createTestIssuer, matching, type TestIssuer } from '@forum/platform/testing';
import { afterEach, beforeEach, expect } from 'vitest';
import { createForumCommands } from '../domain/forum.ts';
import type { WriteLimits } from '../domain/limits.ts';
import { createCommandServer } from '../http/app.ts';
import type { IdentityAdmin } from '../identity-admin/port.ts';
import { streamDirectory } from '../lookup/users.ts';
import { demoPaymentProvider } from '../payment/demo.ts';
import type { PaymentProvider } from '../payment/port.ts';
import type { RouteRequest } from './callers.ts';
import { appendFact, type Fact } from './facts.ts';

export interface CommandApiOptions {
  /** ADMIN_EMAILS: verified addresses that are admins from their first request. */
  readonly adminEmails?: readonly string[];
  /** Makes the write limits, fresh for each test (none: unlimited, as the test forum runs unless a test asks). */
  readonly limits?: () => WriteLimits;
  /** The payment port (the demo provider without its wait when not given: it declines emails with "+decline"). */
  readonly payment?: PaymentProvider;
  /** Where browsers reach the forum: photo addresses may not point at it. */
  readonly forumOrigin?: string;
  readonly trustProxy?: ProxyTrust;
}

/** An event the request appended, as read from the log after it. */
export interface AppendedEvent {
  readonly streamId: string;
  readonly type: string;
  readonly data: unknown;
  readonly metadata: EventMetadata;
  readonly position: LogPosition;
}

/** What a request answered, and the events it appended (the log after the head before it). */
export interface Outcome {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | number | undefined>>;
  /** The body parsed as JSON; its text when it is not JSON; undefined when empty. */
  readonly body: unknown;
  readonly appended: readonly AppendedEvent[];
}

/** An event as a test expects it: what it names is compared (asymmetric matchers welcome), the rest is not. */
export type ExpectedEvent = Partial<Omit<AppendedEvent, 'metadata' | 'position'>> & {
  readonly metadata?: Partial<EventMetadata>;
  readonly position?: Partial<LogPosition>;
};

/** The request sent, ready to be checked with `then(status, body, appended)`. */
export interface Act {
  /** The outcome unchecked (requests sent at once: `Promise.all(requests.map((r) => api.when(r).outcome))`). */
  readonly outcome: Promise<Outcome>;
  /**
   * Checks the answer's status, its body (toEqual, when given) and the events the request appended
   * (toMatchObject, in log order, when given: one append writes its streams in the order of their ids;
   * a refusal, 4xx, must append nothing unless `appended` says otherwise). A 200 or 201 whose body
   * has a `position` carries it as X-Event-Position too, and one without carries none. Answers the
   * outcome for further checks.
   */
  then(status: number, body?: unknown, appended?: readonly ExpectedEvent[]): Promise<Outcome>;
}

/** What a command answers: the id it concerns, its position, and what else its route adds. */
export type Answer = { readonly id: string; readonly position?: string } & Readonly<Record<string, unknown>>;

/** What a test's `given` takes: facts (one, or a member's several), or requests. */
export type Happened = Fact | readonly Fact[] | RouteRequest;
/** The answers of `given`, in the places of its requests. */
export type AnswersOf<H extends readonly Happened[]> = { [K in keyof H]: H[K] extends RouteRequest ? Answer : undefined };

export interface CommandApiSpec {
  /** The event store of the test under way (a fresh one in memory for each test). */
  readonly store: EventStore;
  readonly issuer: TestIssuer;
  /** Signs unsubscribe links as the forum's mailer does (the server checks them with the same secret). */
  readonly unsubscribeTokens: UnsubscribeTokens;
  /**
   * What has happened before, in order: facts appended through the port, or requests that must
   * succeed. Answers each request's body in its place (undefined in a fact's).
   */
  given<const H extends readonly Happened[]>(...happened: H): Promise<AnswersOf<H>>;
  /** Sends `request`; see Act. */
  when(request: RouteRequest): Act;
  /** Every event of the log, in log order (for requests sent at once, whose outcomes each see the others' events). */
  log(): Promise<AppendedEvent[]>;
  /** Moves the server's clock `seconds` on (from the test's start it is the real time; each test begins there again). */
  later(seconds: number): void;
}

/**
 * The identity provider of a route test: it holds an account for each member the log registered
 * (every member of a test signs in with a token of the local issuer).
 */
function accountsOfTheLog(store: EventStore): Pick<IdentityAdmin, 'accountsByEmail'> {
  return {
    async accountsByEmail(email) {
      const events = await store.readAll(START, 100_000);
      return events
        .filter((e) => e.type === 'UserRegistered' && normalizeEmail((e.data as { email: string }).email) === email)
        .map((e) => (e.data as { userId: string }).userId);
    },
  };
}

/**
 * The command side's routes as production serves them (`createCommandServer`: the platform's HTTP
 * server with its error mapping, body limits and hooks, `commandApi` under /api, the forum's
 * commands), over an event store in memory that passes the store's contract suite, with tokens of a
 * local issuer verified by the platform's real verifier. Requests go through `inject`: no socket,
 * no PostgreSQL. Each test gets a fresh store and server (registered as beforeEach and afterEach),
 * in the spirit of Emmett's ApiSpecification: `given(...)`, then `when(request).then(status, body, events)`.
 */
export function commandApiSpec(options: CommandApiOptions = {}): CommandApiSpec {
  let current: { store: EventStore; server: HttpServer; issuer: TestIssuer; errors: string[]; declared: Map<string, FastifySchema | undefined> } | undefined;
  /** How far the server's clock is ahead of the real time, in milliseconds. */
  let ahead = 0;
  const tokens = unsubscribeTokens(randomBytes(32));
  const running = () => {
    if (!current) throw new Error('commandApiSpec is used inside a test');
    return current;
  };

  beforeEach(async () => {
    ahead = 0;
    const store = createMemoryEventStore();
    const issuer = await createTestIssuer();
    const errors: string[] = [];
    const logger = createLogger('command-service', 'error', { format: 'json', destination: { write: (line: string) => void errors.push(line) } });
    const identity = accountsOfTheLog(store);
    const directory = streamDirectory(store, () => identity);
    const commands = createForumCommands(store, {
      adminEmails: options.adminEmails ?? [],
      payment: options.payment ?? demoPaymentProvider({ delayMs: 0 }),
      directory,
      ...(options.limits && { limits: options.limits() }),
    });
    const server = createCommandServer({
      store,
      commands,
      verifyToken: issuer.verifyToken,
      directory,
      logger,
      clock: () => new Date(Date.now() + ahead),
      forumOrigin: options.forumOrigin ?? 'http://localhost:3000',
      unsubscribeTokens: tokens,
      ...(options.trustProxy && { trustProxy: options.trustProxy }),
    });
    // the schema of the route that answered, with what its contexts declare (the API document lists it), by request id
    const declared = new Map<string, FastifySchema | undefined>();
    server.addHook('onResponse', (request, _reply, done) => {
      if (request.routeOptions.url !== undefined) declared.set(request.id, request.routeOptions.schema);
      done();
    });
    await server.ready();
    current = { store, server, issuer, errors, declared };
  });
  afterEach(async () => {
    await current?.server.close();
    await current?.store.close();
    current = undefined;
  });

  async function send(request: RouteRequest) {
    const { server, issuer } = running();
    const headers: Record<string, string> = { ...request.headers };
    if (request.authorization) headers.authorization = await request.authorization(issuer);
    if (request.body !== undefined) headers['content-type'] ??= 'application/json';
    const response = await server.inject({
      method: request.method,
      url: request.url,
      headers,
      ...(request.remoteAddress && { remoteAddress: request.remoteAddress }),
      ...(request.payload !== undefined ? { payload: request.payload } : request.body !== undefined ? { payload: JSON.stringify(request.body) } : {}),
    });
    const text = response.body;
    const isJson = String(response.headers['content-type'] ?? '').includes('json');
    const body = text === '' ? undefined : isJson ? (JSON.parse(text) as unknown) : text;
    const schema = running().declared.get(String(response.headers['x-request-id']));
    expectDeclared(request, response.statusCode, body, schema && errorsOf(schema));
    expectAsDeclared(request, response, schema);
    return { status: response.statusCode, headers: response.headers, body };
  }

  const eventsAfter = async (after: LogPosition): Promise<AppendedEvent[]> =>
    (await running().store.readAll(after, 10_000)).map(({ streamId, type, data, metadata, position }) => ({ streamId, type, data, metadata, position }));

  async function outcomeOf(request: RouteRequest): Promise<Outcome> {
    const before = await running().store.head();
    const answer = await send(request);
    return { ...answer, appended: await eventsAfter(before) };
  }

  function check(outcome: Outcome, status: number, body: unknown, appended: readonly ExpectedEvent[] | undefined): void {
    const { errors } = running();
    const seen = `answer ${outcome.status} ${JSON.stringify(outcome.body)}${errors.length > 0 ? `\nlogged: ${errors.join('')}` : ''}`;
    expect(outcome.status, seen).toBe(status);
    if (body !== undefined) expect(outcome.body, seen).toEqual(body);
    const expected = appended ?? (status >= 400 ? [] : undefined);
    if (expected) expect(outcome.appended, `appended ${JSON.stringify(outcome.appended.map((e) => `${e.streamId} ${e.type}`))}`).toMatchObject(expected);
    if ((status === 200 || status === 201) && typeof outcome.body === 'object' && outcome.body !== null) {
      expect(outcome.headers[HEADER_EVENT_POSITION.toLowerCase()], 'X-Event-Position').toBe((outcome.body as { position?: string }).position);
    }
  }

  return {
    get store() {
      return running().store;
    },
    get issuer() {
      return running().issuer;
    },
    unsubscribeTokens: tokens,

    async given(...happened) {
      const answers: (Answer | undefined)[] = [];
      for (const item of happened) {
        if (!('method' in item)) {
          for (const fact of [item].flat()) await appendFact(running().store, fact);
          answers.push(undefined);
          continue;
        }
        const answer = await send(item);
        if (answer.status >= 300) throw new Error(`given ${item.method} ${item.url}: answered ${answer.status} ${JSON.stringify(answer.body)}`);
        answers.push(answer.body as Answer);
      }
      return answers as never;
    },

    log: () => eventsAfter(START),

    later(seconds) {
      ahead += seconds * 1000;
    },

    when(request) {
      const outcome = outcomeOf(request);
      // a test that never checks it still sees its failure
      outcome.catch(() => {});
      return {
        outcome,
        then(status, body, appended) {
          // (an `await act` by mistake calls then(resolve, reject): it gets the outcome, unchecked)
          if (typeof status !== 'number') return outcome.then(status, body as never);
          return outcome.then((seen) => {
            check(seen, status, body, appended);
            return seen;
          });
        },
      };
    },
  };
}

/**
 * An error answer's code is one its route declares (docs/api.md#the-api-document), with the status
 * ERROR_STATUS gives it: the API document, made from the declarations, lists what routes answer.
 */
function expectDeclared(request: RouteRequest, status: number, body: unknown, declared: readonly string[] | undefined): void {
  const code = (body as Partial<ErrorBody> | undefined)?.error?.code;
  if (status < 400 || declared === undefined || code === undefined) return;
  const call = `${request.method} ${request.url} answered ${status} ${code}`;
  expect(declared, `${call}: a code its route does not declare (schema.errors or its context's declareErrors)`).toContain(code);
  expect(ERROR_STATUS[code as ErrorCodeName], `${call}: not the status of ERROR_STATUS`).toBe(status);
}

/** A success answer is as its route declares (answerMismatch): the API document, made from the declarations, shows what routes answer. */
function expectAsDeclared(request: RouteRequest, response: LightMyRequestResponse, schema: FastifySchema | undefined): void {
  if (response.statusCode < 200 || response.statusCode >= 300 || schema === undefined) return;
  const why = answerMismatch(schema, response.statusCode, response.body, (name) => response.headers[name.toLowerCase()] !== undefined);
  expect(why, `${request.method} ${request.url}: an answer not as its route declares (schema.answers)`).toBeUndefined();
}

/** A position token as commands answer it (X-Event-Position). */
export const aPosition = matching(/^\d+\.\d+$/);
/** An id the server named (a UUIDv7). */
export const anId = matching(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

/** The error body of a refusal with `code`: its message and details as given, else any message and whatever details. */
export function anError(code: string, more: { message?: string; details?: unknown } = {}): unknown {
  const error = { code, message: more.message ?? anyString, ...(more.details !== undefined && { details: more.details }) };
  if (more.details !== undefined) return { error };
  const loose: unknown = expect.objectContaining(error);
  return { error: loose };
}
