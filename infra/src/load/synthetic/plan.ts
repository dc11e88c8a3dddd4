/** The kinds of command a synthetic log is made of. */
export type CommandKind =
  | 'register'
  | 'post'
  | 'vote'
  | 'comment'
  | 'edit'
  | 'report'
  | 'deletePost'
  | 'removeComment'
  | 'profile'
  | 'membership'
  | 'warn'
  | 'readWarnings'
  | 'readNotifications'
  | 'announce'
  | 'readAnnouncements'
  | 'contact'
  | 'makeAdmin'
  | 'tag'
  | 'rebuild'
  | 'erase'
  | 'access'
  | 'handle'
  | 'follow'
  | 'preferences'
  | 'moderatorRole'
  | 'reportPost'
  | 'dismiss'
  | 'hide'
  | 'lock'
  | 'pin'
  | 'suspend';

/**
 * Commands of each kind for about `events` events: per 1M about 10k users, 100k posts,
 * 250k comments, 500k votes, 10k reports of comments and 3k of posts, 10k edits, 7k follow choices,
 * 2k preference changes, 1k handle changes, and staff's hiding, locking, pinning, suspending and
 * dismissing (a few hundred each) asked for (one that changes nothing or that a decider refuses writes nothing: another
 * command takes its place); the counts are scaled so that the events they make (a registration with
 * its handle is three, a post by a free member two, a membership two) add up to `events`.
 */
export function plan(events: number, floors = true): Record<CommandKind, number> {
  const floor = (n: number, min: number) => (floors ? Math.max(min, Math.round(n)) : Math.round(n));
  const users = events / 100;
  const counts: Record<CommandKind, number> = {
    register: floor(users, 20),
    post: Math.round(events / 10),
    vote: Math.round(events / 2),
    comment: Math.round(events / 4),
    edit: Math.round(events / 100),
    report: Math.round(events / 100),
    deletePost: Math.round(events / 400),
    removeComment: Math.round(events / 500),
    profile: Math.round(users / 2),
    membership: Math.round(users / 4),
    warn: Math.round(events / 1000),
    readWarnings: Math.round(events / 3000),
    readNotifications: Math.round(events / 3000),
    announce: floor(events / 50_000, 3),
    readAnnouncements: Math.round(events / 1000),
    contact: Math.round(events / 2000),
    makeAdmin: floor(events / 250_000, 2),
    tag: floor(events / 500_000, 1),
    rebuild: floor(events / 1_000_000, 1),
    erase: floor(users / 50, 1),
    access: floor(users / 100, 1),
    handle: floor(users / 10, 2),
    follow: Math.round(events / 150),
    preferences: floor(users / 5, 3),
    moderatorRole: floor(events / 100_000, 3),
    reportPost: Math.round(events / 300),
    dismiss: floor(events / 2000, 4),
    hide: floor(events / 1000, 8),
    lock: floor(events / 2000, 6),
    pin: floor(events / 5000, 6),
    suspend: floor(events / 2000, 8),
  };
  const perCommand: Partial<Record<CommandKind, number>> = {
    register: 2.9,
    edit: 1.5,
    post: 1.15,
    membership: 2,
    tag: 2,
    deletePost: 1.5,
    erase: 6,
    access: 2,
    handle: 2.8,
  };
  const estimate = (Object.keys(counts) as CommandKind[]).reduce((sum, kind) => sum + counts[kind] * (perCommand[kind] ?? 1), 0);
  const scale = events / estimate;
  for (const kind of [
    'post',
    'vote',
    'comment',
    'edit',
    'report',
    'deletePost',
    'removeComment',
    'warn',
    'readWarnings',
    'readNotifications',
    'readAnnouncements',
    'contact',
    'follow',
    'reportPost',
  ] as const) {
    counts[kind] = Math.round(counts[kind] * scale);
  }
  return counts;
}
