import { z } from 'zod';

/**
 * The change stream: `GET /api/stream?topics=…[&ticket=…]`, Server-Sent Events from the read
 * side (docs/live.md). A message is sent once the projections have applied the event it reflects:
 * a read after it (with its position as X-Min-Position) shows the change. Each message's SSE `id`
 * is that event's position token; its SSE `event` is its type; its `data` is one of the JSON
 * objects below. Messages carry ids and counts only, never names or texts (what an erasure must
 * reach stays in the read models).
 */

/** How many topics one stream may follow. */
export const STREAM_TOPICS_MAX = 20;
/** How long a stream ticket may be used to open a member's stream after it was issued. */
export const STREAM_TICKET_TTL_SECONDS = 60;

/**
 * A stream's topics:
 * - `posts`: posts created, edited, deleted and moderated (the home page's "N new posts", its pins);
 * - `post:<id>`: that post's counts, its comments added, edited, removed and moderated, and its
 *   edits, deletion and moderation (a post page);
 * - `announcements`: announcements published (the bell, for everyone);
 * - `me`: the member's own notifications, announcements' read state and account (needs a ticket).
 */
export const STREAM_TOPIC = z.union([
  z.literal('posts'),
  z.literal('announcements'),
  z.literal('me'),
  z.string().regex(/^post:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'Not a topic'),
]);
export type StreamTopic = z.infer<typeof STREAM_TOPIC>;

/** A post page's topic (its id as the forum writes ids: lower case, whatever case an address gave it in). */
export const postTopic = (postId: string): StreamTopic => `post:${postId.toLowerCase()}`;

/**
 * GET /api/stream's query: topics comma-separated; `ticket` (from GET /api/stream/ticket) for the
 * `me` topic; `lastEventId`, the last message's `id` a client saw, for a client that cannot send the
 * `Last-Event-ID` header (a new EventSource): one that is not a position is taken as absent.
 */
export const StreamQuery = z.object({
  topics: z
    .string()
    .max(STREAM_TOPICS_MAX * 45, 'Too many topics')
    .transform((value) => [...new Set(value.split(',').filter((topic) => topic !== ''))])
    .pipe(z.array(STREAM_TOPIC).min(1, 'Name at least one topic').max(STREAM_TOPICS_MAX, `At most ${STREAM_TOPICS_MAX} topics`)),
  ticket: z.string().max(512).optional(),
  lastEventId: z.string().optional(),
});
export type StreamQuery = z.infer<typeof StreamQuery>;

/** GET /api/stream/ticket (a signed-in member): what opens their own stream, as often as needed until it expires (an EventSource reconnects with the same URL). */
export const StreamTicket = z.object({ ticket: z.string(), expiresInSeconds: z.number().int() });
export type StreamTicket = z.infer<typeof StreamTicket>;

const at = { position: z.string() };
const postId = z.string();

/** Every message's data, by its SSE event name. */
export const StreamMessages = {
  /** The first message of every stream: its `id` is where the stream starts (what Last-Event-ID resumes from). */
  ready: z.object(at),
  'post-created': z.object({ ...at, postId }),
  'post-deleted': z.object({ ...at, postId }),
  /** The post's title, description or tags changed (its page and the home list read it again). */
  'post-edited': z.object({ ...at, postId }),
  /** A post's counts after the event (absolute, as the read model has them). */
  'post-counts': z.object({ ...at, postId, upVote: z.number().int(), downVote: z.number().int(), commentCount: z.number().int() }),
  'comment-added': z.object({ ...at, postId, commentId: z.string() }),
  'comment-removed': z.object({ ...at, postId, commentId: z.string() }),
  'comment-edited': z.object({ ...at, postId, commentId: z.string() }),
  /** Staff hid, showed, locked, unlocked, pinned or unpinned the post: its page and the home list read it again (who may see it, its marks, the pins). */
  'post-moderated': z.object({ ...at, postId }),
  /** Staff hid or showed the comment: the post's comments are read again. */
  'comment-moderated': z.object({ ...at, postId, commentId: z.string() }),
  'announcement-published': z.object({ ...at, announcementId: z.string() }),
  /** Private (`me`): the member's notifications or their announcements' read state changed. */
  notifications: z.object(at),
  /** Private (`me`): the member's account changed (suspended, suspension lifted, moderator role): GET /api/me is read again. */
  account: z.object(at),
  /** What was missed cannot be sent (too far behind, or the read models were rebuilt): read again what is shown. */
  refetch: z.object(at),
} as const;
export type StreamMessageType = keyof typeof StreamMessages;
export type StreamMessage = { [T in StreamMessageType]: { type: T; data: z.infer<(typeof StreamMessages)[T]> } }[StreamMessageType];
