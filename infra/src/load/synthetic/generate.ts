import { createPost, postByAnyone, addComment, deletePost, publishAnnouncement, readAnnouncements, sendContactMessage } from './posts.ts';
import { buyMembership, makeAdmin, opening, registration, replaceTag, updateProfile } from './people.ts';
import { changeHandle } from './handles.ts';
import { choosePreferences, follow } from './follows.ts';
import { edit } from './edits.ts';
import { disableAndEnable, erase, readNotifications, readWarnings, removeComment, requestRebuild, warn } from './moderation.ts';
import { plan, type CommandKind } from './plan.ts';
import { randomness } from './randomness.ts';
import { simulatedForum, type SimulatedForum, type SyntheticEvent } from './simulated-forum.ts';
import { dismiss, hide, lock, moderatorRole, pin, reportPost, suspend } from './staff.ts';
import { castVote, reportComment } from './votes-reports.ts';

export type { SyntheticEvent };

export interface SyntheticLogOptions {
  /** At least this many events (the last command may add one or two more). */
  readonly events: number;
  readonly seed?: number;
  /** The first command's time; later ones follow it. */
  readonly start?: Date;
}

const TAG_NAMES = [
  'React',
  'Node.js',
  'TypeScript',
  'PostgreSQL',
  'DevOps',
  'Career',
  'Show and Tell',
  'Help',
  'Rust',
  'Python',
  'CSS',
  'Security',
  'Testing',
  'Off-topic',
  'Announcements',
  'Mobile',
  'Cloud',
  'Databases',
  'AI',
  'General',
];

/** One command of each kind, as the simulated forum stands; null when it finds nothing to act on or a decider refuses it. */
const commandOfKind: Record<CommandKind, (forum: SimulatedForum) => SyntheticEvent[] | null> = {
  register(forum) {
    const user = forum.newUser();
    // a few subjects' first request is a post: their registration rides on its append
    return forum.random.rand() < 0.05 && forum.registered.length > 0 ? createPost(forum, user) : registration(forum, user);
  },
  post: postByAnyone,
  vote: castVote,
  comment: addComment,
  edit,
  report: reportComment,
  deletePost,
  removeComment,
  profile: updateProfile,
  membership: buyMembership,
  warn,
  readWarnings,
  readNotifications,
  announce: publishAnnouncement,
  readAnnouncements,
  contact: sendContactMessage,
  makeAdmin,
  tag: replaceTag,
  rebuild: requestRebuild,
  erase,
  access: disableAndEnable,
  handle: changeHandle,
  follow,
  preferences: choosePreferences,
  moderatorRole,
  reportPost,
  dismiss,
  hide,
  lock,
  pin,
  suspend,
};

/** The events of a synthetic forum's history, in log order. */
export function* syntheticLog(options: SyntheticLogOptions): Generator<SyntheticEvent> {
  const target = options.events;
  const todo = plan(target);
  let remaining = Object.values(todo).reduce((sum, n) => sum + n, 0);
  // about a year of history whatever the size
  const step = Math.max(1, Math.floor((365 * 86_400_000) / Math.max(remaining, 1)));
  const forum = simulatedForum(randomness(options.seed ?? 1), options.start ?? new Date(Date.UTC(2025, 0, 1)), step);
  const { int } = forum.random;

  yield* opening(forum, TAG_NAMES);
  todo.register -= 1;
  remaining -= 1;

  // Then commands in a random order drawn from the plan (without replacement, so the mix
  // holds at any size), each kind with what exists by then; a command that finds nothing
  // to act on yet (no post to vote on) becomes a registration or a post instead.
  const kinds = Object.keys(todo) as CommandKind[];
  while (forum.written < target) {
    if (remaining === 0) {
      // the estimate fell short: a small plan for the rest, in the same proportions
      const rest = plan(target - forum.written, false);
      Object.assign(todo, rest);
      remaining = Object.values(rest).reduce((sum, n) => sum + n, 0);
    }
    let kind: CommandKind = 'post';
    if (remaining > 0) {
      let roll = int(remaining);
      for (const k of kinds) {
        roll -= todo[k];
        if (roll < 0) {
          kind = k;
          break;
        }
      }
      todo[kind] -= 1;
      remaining -= 1;
    }
    // the first few hundred commands build up a community before anything else
    if (forum.registered.length < 50 && kind !== 'register') kind = 'register';
    else if (forum.livePosts.length < 20 && kind !== 'register' && kind !== 'post') kind = 'post';
    // a command the forum refuses (a suspended member's write, a moderator acting on staff, a locked post) writes nothing: another takes its place
    const run = (k: CommandKind) => forum.attempt(() => commandOfKind[k](forum));
    yield* run(kind) ?? run('post') ?? commandOfKind.register(forum)!;
  }
}
