import { compareLogPositions, normalizeEmail, START, userHistory, type LogPosition } from '@forum/contracts';
import type { EventStore } from '@forum/eventstore';
import { UnavailableError } from '@forum/platform';
import { load } from '../domain/folded-streams.ts';
import { userStreamOf } from '../domain/user/user.ts';
import type { IdentityAdmin } from '../identity-admin/port.ts';

/**
 * Which user an email names, for calls addressed by email, and what a member wrote. Lookups, not
 * rules: the rules of those calls are decided on the streams they load.
 */
export interface UserDirectory {
  userIdByEmail(email: string): Promise<string | null>;
  /**
   * A member's posts, and their comments on others' posts (those on their own go with the posts),
   * as the log records them: what their erasure takes with it when they choose so. Posts and
   * comments deleted since are listed too; their streams say so when they are loaded.
   */
  contentOf(userId: string): Promise<{ posts: string[]; comments: string[] }>;
}

/** Events of a member's history read at a time. */
const HISTORY_PAGE = 1000;

/**
 * The directory of the write side, from its own log and the identity provider (never a read
 * model: docs/architecture.md, "The two sides meet through the log").
 *
 * An email names the identity provider's account with that address (`identity`: its admin API,
 * Keycloak's `GET …/users?email=…&exact=true`, or the embedded realm's own store), and the forum
 * knows that account when its stream holds the registration of that same email: so an address
 * the forum has not seen, or whose member was erased, names no one, as before. Without a way to
 * reach the provider a call by email answers 503. (`identityProvider` is asked at each call: a
 * composition may make the realm after the commands that take this directory.)
 *
 * A member's content is what they wrote as actor in the log (`PostCreated`, `CommentAdded`),
 * read through the store's history index.
 */
export function streamDirectory(store: EventStore, identityProvider: () => Pick<IdentityAdmin, 'accountsByEmail'> | null): UserDirectory {
  /** When the forum registered `userId` with `email`: the position of the stream's first event; null when it did not (or erased them). */
  async function registeredWith(userId: string, email: string): Promise<LogPosition | null> {
    const stream = userStreamOf(userId);
    const { state } = await load(store, stream);
    if (state.status !== 'registered' || normalizeEmail(state.email) !== email) return null;
    const { events } = await store.readStream(stream.id, { maxCount: 1 });
    return events[0]?.position ?? null;
  }

  return {
    async userIdByEmail(email) {
      const identity = identityProvider();
      if (!identity) throw new UnavailableError("Users cannot be found by email: the identity provider's admin API is not configured");
      const wanted = normalizeEmail(email);
      const accounts = await identity.accountsByEmail(wanted);
      const known = await Promise.all(accounts.map(async (id) => ({ id, since: await registeredWith(id, wanted) })));
      // the first registered, should the provider hold several accounts with one address
      const first = known.filter((k): k is { id: string; since: LogPosition } => k.since !== null).sort((a, b) => compareLogPositions(a.since, b.since))[0];
      return first?.id ?? null;
    },

    async contentOf(userId) {
      const posts = new Set<string>();
      const comments = new Map<string, string>(); // comment id → its post's id
      for (let after = START; ;) {
        const page = await store.readHistory(userHistory(userId), { after, limit: HISTORY_PAGE });
        for (const event of page) {
          if (event.metadata.actorId !== userId) continue;
          if (event.type === 'PostCreated') posts.add((event.data as { postId: string }).postId);
          if (event.type === 'CommentAdded') {
            const { commentId, postId } = event.data as { commentId: string; postId: string };
            comments.set(commentId, postId);
          }
        }
        if (page.length < HISTORY_PAGE) break;
        after = page.at(-1)!.position;
      }
      return { posts: [...posts], comments: [...comments].filter(([, postId]) => !posts.has(postId)).map(([commentId]) => commentId) };
    },
  };
}
