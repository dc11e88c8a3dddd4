import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { STREAM_TICKET_TTL_SECONDS } from '@forum/contracts';

/**
 * Stream tickets: what opens a member's own stream (the `me` topic) where a browser cannot send
 * its bearer token (EventSource sends no headers). A ticket names the member and when it expires,
 * signed with HMAC-SHA256: any query-service process with the same key accepts it, none keeps
 * state for it. It may be used until it expires (an EventSource reconnects with the same URL);
 * the account is checked again at each use. Without a key of the operator's, each process makes
 * its own, which is right for one process only: replicas behind one address must share one.
 */
export class StreamTickets {
  private readonly key: Buffer;

  constructor(
    secret: string | undefined,
    private readonly now: () => number = Date.now,
    readonly ttlSeconds: number = STREAM_TICKET_TTL_SECONDS,
  ) {
    this.key = secret === undefined ? randomBytes(32) : Buffer.from(secret, 'utf8');
  }

  /** A ticket for `memberId`, valid for `ttlSeconds` from now. */
  issue(memberId: string): string {
    const payload = `${Buffer.from(memberId, 'utf8').toString('base64url')}.${Math.floor(this.now() / 1000) + this.ttlSeconds}`;
    return `${payload}.${this.sign(payload)}`;
  }

  /** The member a ticket names, when it is one of ours and has not expired; null otherwise. */
  memberOf(ticket: string): string | null {
    const parts = ticket.split('.');
    if (parts.length !== 3) return null;
    const [member, expires, signature] = parts as [string, string, string];
    const expected = Buffer.from(this.sign(`${member}.${expires}`), 'utf8');
    const given = Buffer.from(signature, 'utf8');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    if (!/^\d{1,12}$/.test(expires) || Number(expires) * 1000 <= this.now()) return null;
    const memberId = Buffer.from(member, 'base64url').toString('utf8');
    return memberId === '' ? null : memberId;
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.key).update(`forum-stream-ticket:${payload}`).digest('base64url');
  }
}
