import { defineProjection } from '../runner/projection.ts';
import { mentioningText, notifyMentions } from './fan-out.ts';
import { applyMemberEvent, MEMBER_EVENT_TYPES, type MemberEvent } from './member-events.ts';
import { FanOutRun } from './run.ts';
import { MODERATION_COLUMNS, MODERATION_TYPES, writeModeration } from './moderation.ts';
import { readByAuthor, writeMarks, writeWarnings, type Mark, type Warning } from './warnings.ts';

/**
 * Each member's notifications, and whether they were read (docs/notifications.md):
 * - the moderators' warnings (a warning about a comment keeps its post and the quote of it; the
 *   moderators' queue asks by comment whether it was warned about), read by `WarningsRead`;
 * - what the log fans out to them (fan-out.ts): a comment on their post (`reply`), on a post they
 *   follow (`followed-post`), a new post in a tag they follow (`followed-tag`), an @mention
 *   (`mention`), never of their own doing; comments on one post collapse into one unread row per
 *   member and kind. Read by `NotificationsRead`. Names, titles and texts are not kept: the read
 *   side joins them, so an erasure reaches them. `position` is the log position of the event that
 *   last moved a row (a warning's `UserWarned`): the change stream asks which members a batch
 *   reached, the mailer which rows are new;
 * - who follows which post (its author and commenters by default, an explicit choice for good) and
 *   which tag, and every member's handle (folded), which mentions are resolved through;
 * - each member's announcements read mark (one row, the newest announcement they marked read and
 *   its publication time), which only moves forward. An announcement is read by its author: their
 *   mark moves to it when it already covered every announcement before it (the newest publication
 *   time is kept for that); otherwise it stays, since a mark reads everything up to it.
 * - what staff did to a member's post, comment or account (`moderation`, moderation.ts).
 * An erased member's rows, follows, handle and mark are deleted.
 */
export const notificationsProjection = defineProjection({
  name: 'notifications',
  // what each version changed: docs/projections-versions.md
  version: 7,
  types: [
    'UserWarned',
    'WarningsRead',
    'AnnouncementsRead',
    'AnnouncementPublished',
    'PostCreated',
    'CommentAdded',
    'PostEdited',
    'CommentEdited',
    ...MEMBER_EVENT_TYPES,
    ...MODERATION_TYPES,
  ],
  // texts for their mentions, handles to resolve them; an announcement's author counts by their id
  opens: ['UserWarned', 'PostCreated', 'CommentAdded', 'PostEdited', 'CommentEdited', 'HandleChanged'],
  exposes: {
    notifications: 'notifications',
    announcements_read: 'announcements_read',
    post_followers: 'post_followers',
    tag_followers: 'tag_followers',
  },
  async migrate(trx) {
    await trx.raw(`
      CREATE TABLE IF NOT EXISTS notifications (
        id uuid PRIMARY KEY,
        user_id text NOT NULL,
        kind text NOT NULL,
        reason text,
        comment_id uuid,
        post_id uuid,
        comment_quote text,
        actor_id text,
        tag text,
        count integer NOT NULL DEFAULT 1,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        read boolean NOT NULL DEFAULT false,
        position bigint
      );
      CREATE INDEX IF NOT EXISTS notifications_of_user ON notifications (user_id, updated_at DESC, id DESC);
      CREATE INDEX IF NOT EXISTS notifications_of_comment ON notifications (comment_id) WHERE kind = 'warning' AND comment_id IS NOT NULL;
      -- one unread row per member, post and kind of comment: the next comment joins it
      CREATE UNIQUE INDEX IF NOT EXISTS notifications_collapsed ON notifications (user_id, post_id, kind) WHERE NOT read AND kind IN ('reply', 'followed-post');
      -- an erased member's mentions of others, which go with their text (a handful of rows: the erasure's
      -- DELETE reads them and the member's own by index, not every notification)
      CREATE INDEX IF NOT EXISTS notifications_mentions_by_actor ON notifications (actor_id) WHERE kind = 'mention';
      CREATE TABLE IF NOT EXISTS post_authors (post_id uuid PRIMARY KEY, author_id text NOT NULL);
      CREATE TABLE IF NOT EXISTS post_followers (
        post_id uuid NOT NULL,
        user_id text NOT NULL,
        following boolean NOT NULL,
        -- chosen (PostFollowed, PostUnfollowed) rather than by default as the author or a commenter
        explicit boolean NOT NULL,
        PRIMARY KEY (post_id, user_id)
      );
      CREATE INDEX IF NOT EXISTS post_followers_of_user ON post_followers (user_id);
      CREATE TABLE IF NOT EXISTS tag_followers (tag_key text NOT NULL, user_id text NOT NULL, tag text NOT NULL, PRIMARY KEY (tag_key, user_id));
      CREATE INDEX IF NOT EXISTS tag_followers_of_user ON tag_followers (user_id, tag_key);
      CREATE TABLE IF NOT EXISTS handles (user_id text PRIMARY KEY, handle text NOT NULL);
      CREATE INDEX IF NOT EXISTS handles_by_handle ON handles (handle);
      -- whom each post or comment has notified of a mention (an edit notifies only whom it adds)
      CREATE TABLE IF NOT EXISTS mentioned (text_id uuid NOT NULL, user_id text NOT NULL, PRIMARY KEY (text_id, user_id));
      CREATE TABLE IF NOT EXISTS announcements_read (
        user_id text PRIMARY KEY,
        announcement_id uuid NOT NULL,
        up_to timestamptz NOT NULL
      );
      CREATE TABLE IF NOT EXISTS announcements_newest (
        only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
        published_at timestamptz NOT NULL
      );
    `);
    await trx.raw(MODERATION_COLUMNS);
  },
  // The rows by position serve the readers only (the change stream, the mailer): a replay builds the
  // index once it has caught up rather than keeping it up through millions of fanned-out rows
  indexes: { notifications: ['CREATE INDEX IF NOT EXISTS notifications_at_position ON notifications (position) WHERE position IS NOT NULL'] },
  async apply(trx, events) {
    // Warnings and marks are written in segments that an erasure ends (reads of warnings that
    // were there before a segment, then its warnings, read already when a later WarningsRead of
    // it names them). The fan-out goes in runs of new posts, new comments and follow choices,
    // written set-wise when an event that depends on them comes (run.ts); the others one by one.
    const warnings = new Map<string, Warning>();
    const reads: { userId: string; warningIds: string[] }[] = [];
    const marks = new Map<string, Mark>();
    const run = new FanOutRun(trx);
    for (const event of events) {
      switch (event.type) {
        case 'PostCreated':
        case 'CommentAdded':
          run.add(event);
          break;
        case 'PostFollowed':
        case 'PostUnfollowed':
        case 'TagFollowed':
        case 'TagUnfollowed':
          await run.choose(event);
          break;
        case 'PostEdited':
        case 'CommentEdited': {
          const edited = mentioningText(event, 0);
          if (edited.handles.length === 0) break;
          await run.end();
          await notifyMentions(trx, [edited]);
          break;
        }
        case 'HandleChanged':
          run.changeHandle(event);
          break;
        case 'PostDeleted':
          await run.beforeDeletion(event.data.postId);
          await applyMemberEvent(trx, event);
          break;
        case 'AnnouncementsRead': {
          const { userId, announcementId, upTo } = event.data;
          const kept = marks.get(userId);
          if (!kept || Date.parse(upTo) > Date.parse(kept.upTo)) marks.set(userId, { userId, announcementId, upTo });
          break;
        }
        case 'AnnouncementPublished':
          await writeMarks(trx, marks);
          marks.clear();
          await readByAuthor(trx, event.data);
          break;
        case 'UserWarned': {
          const w = event.data;
          if (!warnings.has(w.warningId)) {
            warnings.set(w.warningId, {
              warningId: w.warningId,
              userId: w.userId,
              reason: w.reason,
              commentId: w.commentId ?? null,
              postId: w.postId ?? null,
              commentQuote: w.commentQuote ?? null,
              warnedAt: w.warnedAt,
              read: false,
              position: event.position.globalPosition.toString(),
            });
          }
          break;
        }
        case 'WarningsRead': {
          const read = event.data;
          reads.push({ userId: read.userId, warningIds: read.warningIds });
          for (const id of read.warningIds) {
            const warning = warnings.get(id);
            if (warning && warning.userId === read.userId) warning.read = true;
          }
          break;
        }
        case 'PostHidden':
        case 'PostUnhidden':
        case 'CommentHidden':
        case 'CommentUnhidden':
        case 'MemberSuspended':
        case 'SuspensionLifted':
          await run.end();
          await writeModeration(trx, [event]);
          break;
        case 'AccountErased':
          await run.end();
          await writeWarnings(trx, warnings, reads);
          await writeMarks(trx, marks);
          warnings.clear();
          reads.length = 0;
          marks.clear();
          await applyMemberEvent(trx, event);
          break;
        default:
          await run.end();
          await applyMemberEvent(trx, event satisfies MemberEvent);
      }
    }
    await run.end();
    await writeWarnings(trx, warnings, reads);
    await writeMarks(trx, marks);
  },
});
