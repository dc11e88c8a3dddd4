import { randomUUID } from 'node:crypto';
import type { TestIssuer, TokenFlaws, TokenSubject } from '@forum/platform/testing';

/** A request a route test sends through `inject`: a JSON `body`, or a raw `payload` with its own Content-Type header. */
export interface RouteRequest {
  readonly method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly url: string;
  readonly body?: unknown;
  readonly payload?: string | Buffer;
  readonly headers?: Readonly<Record<string, string>>;
  /** The client's address as the socket gives it (127.0.0.1 when not given). */
  readonly remoteAddress?: string;
  /** The Authorization header, made with the test's issuer; none for a visitor. */
  readonly authorization?: (issuer: TestIssuer) => Promise<string>;
}

type Method = RouteRequest['method'];
interface Sent {
  readonly headers?: Readonly<Record<string, string>>;
  readonly remoteAddress?: string;
}

/** Who sends a request: its verbs make the requests (`body` as JSON; `payload` for bytes sent as they are). */
export class Caller {
  constructor(private readonly authorization?: RouteRequest['authorization']) {}

  post(url: string, body?: unknown, sent?: Sent): RouteRequest {
    return this.request('POST', url, body, sent);
  }
  put(url: string, body?: unknown, sent?: Sent): RouteRequest {
    return this.request('PUT', url, body, sent);
  }
  patch(url: string, body?: unknown, sent?: Sent): RouteRequest {
    return this.request('PATCH', url, body, sent);
  }
  delete(url: string, body?: unknown, sent?: Sent): RouteRequest {
    return this.request('DELETE', url, body, sent);
  }
  /** `payload` sent byte for byte with `contentType`. */
  send(method: Method, url: string, payload: string | Buffer, contentType = 'application/json', sent: Sent = {}): RouteRequest {
    return { ...this.request(method, url, undefined, sent), payload, headers: { 'content-type': contentType, ...sent.headers } };
  }

  private request(method: Method, url: string, body: unknown, sent: Sent = {}): RouteRequest {
    return { method, url, ...(body !== undefined && { body }), ...sent, ...(this.authorization && { authorization: this.authorization }) };
  }
}

/** A member of the forum as the identity provider knows them; their requests carry a good token of theirs. */
export class Member extends Caller implements TokenSubject {
  readonly id: string;
  readonly email: string;
  readonly name: string;
  readonly photo: string;
  readonly emailVerified: boolean;
  readonly handle?: string;

  constructor(subject: TokenSubject) {
    super(async (issuer) => `Bearer ${await issuer.sign(this)}`);
    this.id = subject.id;
    this.email = subject.email;
    this.name = subject.name;
    this.photo = subject.photo ?? '';
    this.emailVerified = subject.emailVerified ?? false;
    if (subject.handle !== undefined) this.handle = subject.handle;
  }

  /** The same member with a token that has `flaws` (expired, for another audience, signed by another key…). */
  withToken(flaws: TokenFlaws): Caller {
    return new Caller(async (issuer) => `Bearer ${await issuer.sign(this, flaws)}`);
  }
}

/** A new member named `name` (an id of their own; email `<name>@forum.test` unless given). */
export function member(name: string, claims: { email?: string; photo?: string; emailVerified?: boolean; handle?: string } = {}): Member {
  return new Member({ id: randomUUID(), email: claims.email ?? `${name.toLowerCase().replace(/[^a-z0-9]+/g, '.')}@forum.test`, name, ...claims });
}

/** Someone without a token. */
export const visitor = new Caller();

/** A caller whose Authorization header is `header` as it is (a token that is no token, another scheme). */
export const withAuthorization = (header: string): Caller => new Caller(() => Promise.resolve(header));
