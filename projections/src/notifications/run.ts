import type { Knex } from '@forum/platform';
import {
  mentioningText,
  notifyMentions,
  reachTagFollowers,
  writeComments,
  writeHandles,
  writePosts,
  type CommentAdded,
  type HandleChange,
  type MentioningText,
  type PostCreated,
} from './fan-out.ts';
import { FollowChoices, type FollowEvent, type HandleChanged } from './member-events.ts';

/**
 * What the notifications read model has yet to write of a batch's fan-out (see projection.ts): new
 * posts and comments, follow choices, handles, and the texts whose mentions are not written yet,
 * written set-wise when an event that depends on them comes, or at the batch's end.
 *
 * A run is as long as it can be: a replay of a big log goes through it in a few hundred runs rather
 * than in one every few events. What a text reads and writes is its post's rows (its author, its
 * followers), its post's tags' followers (a post), the handles (its mentions) and its own mentions;
 * a choice writes its post's or its tag's followers; a handle, the handles. So an event ends the run
 * only where they meet:
 * - a follow choice about a post or a tag of the run's texts ends it (the run's choices are written
 *   before its texts: each text comes after the choices it depends on);
 * - a handle changes nothing at once: the run's mentions resolve through the handles of their time
 *   (the kept ones, or the run's changes before them), and the run's handles are written after them;
 * - a post's deletion ends the run when the run holds the post (its texts or choices);
 * - an edit that names nobody has nothing to write; one that does ends the run (a comment's
 *   followers are reached but for those it mentioned, its edit's mentions included);
 * - a read or an erasure ends it (they change what a comment's notification joins).
 * Within the written run, the choices go first, then the posts, the mentions, the handles, whom the
 * posts reach, and the comments, in log order each: a comment reads only posts created before it, and no post
 * reads a comment.
 */
export class FanOutRun {
  private posts: PostCreated[] = [];
  private comments: CommentAdded[] = [];
  private unmentioned: MentioningText[] = [];
  private handles: HandleChange[] = [];
  /** The order of the run's texts and handles, for mentions. */
  private ord = 0;
  private readonly choices = new FollowChoices();
  /** The posts the run's texts are about, and the tags of its posts. */
  private readonly postIds = new Set<string>();
  private readonly tags = new FoldedTags();

  constructor(private readonly trx: Knex.Transaction) {}

  add(event: PostCreated | CommentAdded): void {
    if (event.type === 'PostCreated') {
      this.posts.push(event);
      for (const tag of event.data.tags) this.tags.add(tag);
    } else this.comments.push(event);
    this.postIds.add(event.data.postId);
    const text = mentioningText(event, this.ord++);
    if (text.handles.length > 0) this.unmentioned.push(text);
  }

  async choose(event: FollowEvent): Promise<void> {
    const meets = 'postId' in event.data ? this.postIds.has(event.data.postId) : this.tags.meets(event.data.tag);
    if (meets) await this.end();
    this.choices.add(event);
  }

  changeHandle({ data }: HandleChanged): void {
    this.handles.push({ ord: this.ord++, userId: data.userId, handle: data.handle });
  }

  /** Before a post's deletion: the run's texts and choices about it are written. */
  async beforeDeletion(postId: string): Promise<void> {
    if (this.postIds.has(postId) || this.choices.touches(postId)) await this.end();
  }

  /** Writes the whole run. */
  async end(): Promise<void> {
    const { trx, posts, comments } = this;
    await this.choices.write(trx);
    await writePosts(trx, posts);
    await notifyMentions(trx, this.unmentioned, this.handles);
    await writeHandles(trx, this.handles);
    await reachTagFollowers(trx, posts);
    await writeComments(trx, comments);
    this.posts = [];
    this.comments = [];
    this.unmentioned = [];
    this.handles = [];
    this.ord = 0;
    this.postIds.clear();
    this.tags.clear();
  }
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * Tags as SQL's lower() folds them, for telling whether two runs' tags may meet: an ASCII tag by its
 * lower case; any other tag may fold to anything (it meets every tag).
 */
class FoldedTags {
  private readonly keys = new Set<string>();
  private unfolded = false;

  add(tag: string): void {
    if (PRINTABLE_ASCII.test(tag)) this.keys.add(tag.toLowerCase());
    else this.unfolded = true;
  }

  /** Whether the tag may fold as one of these. */
  meets(tag: string): boolean {
    if (this.unfolded) return true;
    return PRINTABLE_ASCII.test(tag) ? this.keys.has(tag.toLowerCase()) : this.keys.size > 0;
  }

  clear(): void {
    this.keys.clear();
    this.unfolded = false;
  }
}
