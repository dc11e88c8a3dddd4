/**
 * The business constants of the spec (section 9 and the limits the issues add).
 * Every other workspace imports them from here; nothing restates them.
 */
export const FREE_POST_LIMIT = 5;
export const POST_LIMIT_WARNING_FROM = 4;
export const PAGE_SIZE = 5;
/** Pages of the home list: ceil(totalCount / PAGE_SIZE), and at least one (the empty list's). */
export const postPageCount = (totalCount: number) => Math.max(1, Math.ceil(totalCount / PAGE_SIZE));
export const ADMIN_PAGE_SIZE = 10;
export const RECENT_POSTS = 3;
export const LEADERBOARD_SIZE = 20;
export const SUMMARY_LENGTH = 80;
export const COMMENT_PREVIEW_LENGTH = 20;
export const MEMBERSHIP_PRICE = { amountCents: 999, currency: 'USD', display: '$9.99' } as const;
export const UPGRADE_SIMULATED_WAIT_MS = 2000;
export const REPORT_FEEDBACK = ['spam', 'inappropriate', 'offensive'] as const;
export const ANONYMOUS_NAME = 'Anonymous';
export const FALLBACK_TAG = 'General';

export const POST_TITLE_MAX = 200;
export const POST_DESCRIPTION_MAX = 20_000;
export const POST_TAGS_MAX = 5;
export const TAG_NAME_MAX = 30;
export const COMMENT_MAX = 5_000;
export const WARNING_REASON_MAX = 500;
/** What a warning says when the admin gives no reason (the spec's Warn User sends none). */
export const DEFAULT_WARNING_REASON = 'A moderator has warned you about content that breaks the community rules.';
/** A warning about a comment quotes its start to the member: this many characters, then '...' (docs/moderation.md). */
export const WARNING_QUOTE_LENGTH = 120;
export const SEARCH_QUERY_MAX = 200;
/**
 * Full-text search (`?q=`) ranks the newest SEARCH_MATCH_CAP matches at most: its total is exact
 * up to this many and 'more than SEARCH_MATCH_CAP' above (`totalCountCapped`), so a common word
 * costs what a rare one does.
 */
export const SEARCH_MATCH_CAP = 1000;
/** A search result's snippet of its description holds at most this many characters (its words around the matches). */
export const SEARCH_SNIPPET_MAX = 300;
/**
 * The spec's unpaged calls (`/comments/:postId`, `/posts/search?tag=` without `page`, `/my-posts/:email`,
 * the reported comments, the announcements) answer at most this many rows, the first in the list's
 * order, and the whole list's count in X-Total-Count (HEADER_TOTAL_COUNT).
 */
export const UNPAGED_LIST_MAX = 100;

/** An email address (RFC 5321's longest path less its brackets): the Contact page's, an `:email` of a path, the realm's accounts. */
export const EMAIL_MAX = 254;

/** Admin area and Contact page: limits the spec leaves open. */
export const ANNOUNCEMENT_TITLE_MAX = 200;
export const ANNOUNCEMENT_DESCRIPTION_MAX = 5_000;
export const CONTACT_NAME_MAX = 100;
export const CONTACT_MESSAGE_MAX = 5_000;
export const ADMIN_SEARCH_MAX = 100;

// ---- Write limits (abuse limits): the arithmetic behind each number is in docs/security/abuse-limits.md

/** At most `points` writes in a window of `seconds` that opens with the first of them (a fixed window). */
export interface WriteWindow {
  readonly points: number;
  readonly seconds: number;
}
/** A kind's two windows: a short one that stops a burst at once, a long one that caps a sustained rate. */
export interface WriteLimit {
  readonly burst: WriteWindow;
  readonly sustained: WriteWindow;
}
export const WRITE_KINDS = ['post', 'comment', 'edit', 'vote', 'follow', 'report', 'profile', 'contact', 'lookup', 'read', 'preferences'] as const;
export type WriteKind = (typeof WRITE_KINDS)[number];
/**
 * Accepted writes per member (contact: per client address) in each window; one more answers 429
 * RATE_LIMITED with Retry-After. Only writes that change something count (see the docs). `lookup`
 * is the one read among them: GET /api/user-profile/:email per client address, every answer
 * counted, since it tells whether an email has an account (docs/security/accounts.md).
 */
export const WRITE_LIMITS: Readonly<Record<WriteKind, WriteLimit>> = {
  post: { burst: { points: 5, seconds: 60 }, sustained: { points: 20, seconds: 3600 } },
  comment: { burst: { points: 12, seconds: 60 }, sustained: { points: 120, seconds: 3600 } },
  edit: { burst: { points: 10, seconds: 60 }, sustained: { points: 60, seconds: 3600 } },
  vote: { burst: { points: 60, seconds: 60 }, sustained: { points: 600, seconds: 3600 } },
  follow: { burst: { points: 60, seconds: 60 }, sustained: { points: 600, seconds: 3600 } },
  report: { burst: { points: 10, seconds: 60 }, sustained: { points: 60, seconds: 3600 } },
  profile: { burst: { points: 5, seconds: 60 }, sustained: { points: 20, seconds: 3600 } },
  contact: { burst: { points: 5, seconds: 600 }, sustained: { points: 20, seconds: 86_400 } },
  lookup: { burst: { points: 30, seconds: 60 }, sustained: { points: 300, seconds: 3600 } },
  read: { burst: { points: 120, seconds: 60 }, sustained: { points: 1200, seconds: 3600 } },
  preferences: { burst: { points: 30, seconds: 60 }, sustained: { points: 200, seconds: 3600 } },
};

// ---- Editing (issue #41, docs/product.md)
/** An author's edits within this many seconds of the previous revision fold into it (Discourse's grace period). */
export const EDIT_GRACE_SECONDS = 300;
/** The reason staff give when they edit someone else's post or comment, shown with the revision. */
export const EDIT_REASON_MAX = 500;
/** A post's or comment's revisions (GET /api/posts/:id/revisions, GET /api/comments/:commentId/revisions): the newest this many, oldest first, and their total. */
export const REVISION_LIST_MAX = 100;

// ---- Notifications, follows and handles (issue #42, docs/notifications.md)
/**
 * What notifies a member, each a preference of its own: a comment on their post (`reply`), a comment on
 * a post they follow (`followed-post`), a new post in a tag they follow (`followed-tag`), an @mention in
 * a post or comment (`mention`), a moderator's warning (`warning`), staff hiding or showing again the
 * member's post or comment, or suspending them or lifting it (`moderation`, with the reason), an
 * announcement (`announcement`).
 */
export const NOTIFICATION_KINDS = ['reply', 'followed-post', 'followed-tag', 'mention', 'warning', 'moderation', 'announcement'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
/**
 * How a kind reaches the member: in the app only; in the app and by email at once when not seen in the
 * app within EMAIL_UNSEEN_SECONDS; in the app and in the daily digest; or not at all.
 */
export const DELIVERIES = ['app', 'email', 'digest', 'off'] as const;
export type Delivery = (typeof DELIVERIES)[number];
/** Discourse's defaults: what answers or names the member is mailed when unseen; what they follow waits for the digest. */
export const DEFAULT_DELIVERIES: Readonly<Record<NotificationKind, Delivery>> = {
  reply: 'email',
  mention: 'email',
  'followed-post': 'app',
  'followed-tag': 'digest',
  warning: 'email',
  moderation: 'email',
  announcement: 'app',
};
/**
 * The deliveries a member may choose per kind: a moderator's warning, and what staff did to their content
 * or account, always reach them in the app (never off); announcements are the bell's for everyone, members and visitors alike, and go by no email.
 */
export const DELIVERIES_OF: Readonly<Record<NotificationKind, readonly Delivery[]>> = {
  reply: DELIVERIES,
  mention: DELIVERIES,
  'followed-post': DELIVERIES,
  'followed-tag': DELIVERIES,
  warning: ['app', 'email', 'digest'],
  moderation: ['app', 'email', 'digest'],
  announcement: ['app'],
};
/** A notification by email waits this long for the member to see it in the app first. */
export const EMAIL_UNSEEN_SECONDS = 300;
/** At most one email per member and kind in this many seconds; what comes meanwhile goes in the next one. */
export const EMAIL_BATCH_SECONDS = 300;
/** The notification centre's page size (GET /api/me/notifications?page=n); the bell shows the first BELL_LATEST. */
export const NOTIFICATION_PAGE_SIZE = 20;
export const BELL_LATEST = 5;
/** POST /api/me/notifications/read names at most this many ids (five pages of the centre); `{}` or `upTo` reads any number. */
export const NOTIFICATION_READ_IDS_MAX = 100;
/** A post or comment notifies at most this many members it @mentions (the first ones in the text). */
export const MENTIONS_NOTIFIED_MAX = 10;
/** GET /api/users/handles?prefix=…: the editor's autocomplete, at most this many. */
export const HANDLE_SUGGESTIONS_MAX = 8;
/**
 * A handle: 3 to 20 characters of ASCII letters, digits and `_`, with single `.` or `-` between them
 * (never first or last, never two in a row): what a mention can be typed and read as, with no letters
 * that look alike from other scripts. Unique ignoring case.
 */
export const HANDLE_MIN = 3;
export const HANDLE_MAX = 20;
export const HANDLE_PATTERN = /^[A-Za-z0-9_](?:[A-Za-z0-9_]|[.-](?=[A-Za-z0-9_]))*$/;
/** Handles nobody may take: they would read as the forum speaking, or as a group. */
export const RESERVED_HANDLES: readonly string[] = [
  'admin',
  'administrator',
  'moderator',
  'mod',
  'staff',
  'system',
  'forum',
  'support',
  'all',
  'everyone',
  'here',
  'deleted',
  'anonymous',
  'me',
  'root',
];

// ─── text and paging limits (see text-policy.ts; lengths in Unicode code points) ───

/** A display name: the realm's register form, PATCH /api/me. */
export const DISPLAY_NAME_MAX = 100;
/** A photo address: the realm's register form, PATCH /api/me. */
export const PHOTO_URL_MAX = 2048;
/** A user's id (the identity provider's subject) in a path. */
export const USER_ID_MAX = 255;
/**
 * The deepest page of every paged call (`?page=`, and react-admin's `range` start over ADMIN_PAGE_SIZE):
 * 10 million pages, 50 million posts at PAGE_SIZE; every offset it gives stays within PostgreSQL's integer.
 */
export const PAGE_MAX = 10_000_000;
/**
 * Decimal digits 0-9, a minus sign allowed in front: the one way a number is written in a query
 * string. Kept here rather than beside the schemas that use it (text-policy.ts): a page that reads
 * `?page=` needs it in its first JavaScript, which must not bring zod with it.
 */
export const DECIMAL_INTEGER = /^-?[0-9]+$/;
/** The highest version a stream can reach: the event store's stream_version is a PostgreSQL integer. */
export const STREAM_VERSION_MAX = 2 ** 31 - 1;

// ---- Photos (issue #28 item 9)
/**
 * How long Change Photo waits for a new photo address to load as an image in the member's browser
 * before it says the link did not load (the server never fetches photos: each viewer's browser does).
 */
export const PHOTO_LOAD_TIMEOUT_MS = 10_000;

export const POST_SORTS = ['newest', 'popularity'] as const;
export type PostSort = (typeof POST_SORTS)[number];

// ---- Browser security headers: what the web apps' build and the gateway agree on (docs/security/headers.md)
/** The apps' Vite config writes this into their index.html as the CSP nonce (web-auth/vite.ts); the gateway puts a fresh nonce in its place per answer. */
export const CSP_NONCE_PLACEHOLDER = 'forum-csp-nonce-placeholder';
/** keycloak-js's check-sso page under each app's base: the one page of the apps that a page of the same origin may frame. */
export const SILENT_CHECK_SSO_PAGE = 'silent-check-sso.html';
/** The check-sso page's script, a file beside it: the apps' CSP runs no inline script. */
export const SILENT_CHECK_SSO_SCRIPT = 'silent-check-sso.js';

/**
 * Spec §5: checked in this order, each with its own message. The messages are the spec's words,
 * word for word ('more 8 character', 'must 1 uppercase letter.'): not typos to correct (docs/product.md §5).
 */
export const PASSWORD_SPECIALS = `!@#$%^&*()-_=+[{]}\\|;:'",<.>/?`;
export const PASSWORD_RULES = [
  { test: (p: string) => p.length >= 8, message: 'Password should be more 8 character' },
  { test: (p: string) => /[A-Z]/.test(p), message: 'Password must 1 uppercase letter.' },
  { test: (p: string) => /[a-z]/.test(p), message: 'Password must 1 lowercase letter.' },
  { test: (p: string) => [...p].some((c) => PASSWORD_SPECIALS.includes(c)), message: 'Password must 1 special character.' },
] as const;
export const PASSWORD_MISMATCH_MESSAGE = 'Password and Confirm Password must match';
/** The rules above in plain words, shown under a new password's field before anything is typed (the spec shows only the messages). */
export const PASSWORD_RULES_HINT = 'At least 8 characters, with an uppercase letter, a lowercase letter and a special character such as ! @ # or ?';

/** The first rule a password breaks, or null when it passes all of them. */
export function passwordProblem(password: string): string | null {
  return PASSWORD_RULES.find((rule) => !rule.test(password))?.message ?? null;
}

/**
 * The opening of a description the read model keeps for its card (SUMMARY_SOURCE_LENGTH characters
 * of its Markdown): the read side cuts the card's plain-text preview from it (contracts/markdown's
 * `summarize`), as a whole description would give it unless its first SUMMARY_LENGTH characters of
 * plain text take more Markdown than that (long link addresses).
 */
export const SUMMARY_SOURCE_LENGTH = 1000;

/** SUMMARY_SOURCE_LENGTH, in SQL over the text expression `description`: the read model computes it where it writes the post. */
export function summarizeSql(description: string): string {
  return `left(${description}, ${SUMMARY_SOURCE_LENGTH})`;
}

// ── Paging: every list the API answers is bounded (docs/security/paging.md) ──────────
/** Comments of a post on one page of GET /api/posts/:id/comments unless `limit` says otherwise, and the most `limit` may ask. */
export const COMMENT_PAGE_SIZE = 20;
export const COMMENT_PAGE_MAX = 100;
/** Events of a history (GET /api/admin/history/:kind/:id) on one page, and the most its `limit` may ask. */
export const HISTORY_PAGE_SIZE = 200;
/**
 * The public tag list (GET /api/tags) and the admins' (GET /api/admin/tags without a range) answer
 * at most this many tags, by name: every tag a post may take is offered in one list, so the bound
 * is far above what a forum's admins curate; X-Total-Count tells when it cut.
 */
export const TAG_LIST_MAX = 1000;

/* ---- Identity: email addresses, verification and sign-in throttling (docs/security/identity.md) ---- */
/** The parts of an email address (EMAIL_MAX above bounds the whole). */
export const EMAIL_LOCAL_PART_MAX = 64;
export const EMAIL_DOMAIN_LABEL_MAX = 63;
/** How long the link of an email-verification mail works (it works once). */
export const EMAIL_VERIFICATION_TTL_SECONDS = 24 * 60 * 60;
/**
 * Sign-in back-off of the embedded realm (docs/security/identity.md has the arithmetic). Failed
 * sign-ins count per (client address, account) pair, per account and per client address: `free`
 * failures pass, then each further one makes the next try wait `firstWaitSeconds`, doubling up to
 * `maxWaitSeconds`; failures are forgotten `forgetAfterSeconds` after the last one. An address the
 * account signed in from lately (`familiarForSeconds`) is held only by its own pair's back-off.
 */
export const LOGIN_BACKOFF = {
  pair: { free: 5, firstWaitSeconds: 60, maxWaitSeconds: 15 * 60 },
  account: { free: 10, firstWaitSeconds: 60, maxWaitSeconds: 15 * 60 },
  address: { free: 20, firstWaitSeconds: 60, maxWaitSeconds: 15 * 60 },
  forgetAfterSeconds: 24 * 60 * 60,
  familiarForSeconds: 30 * 24 * 60 * 60,
} as const;

/** Erasure (docs/security/erasure.md). */
/** Who an erased member's posts and comments are by, when their text is kept. */
export const DELETED_USER_NAME = 'Deleted user';
/** What history and export show in place of an erased field. */
export const ERASED_MARK = '[erased]';
/** What a member chooses for the text of their posts and comments when they erase their account. */
export const ERASED_CONTENT_CHOICES = ['keep', 'erase'] as const;
export type ErasedContentChoice = (typeof ERASED_CONTENT_CHOICES)[number];

/** Why an account's still-valid tokens are refused: the identity realm disabled it, or it was erased. */
export const ACCOUNT_DENIALS = ['disabled', 'erased'] as const;
export type AccountDenial = (typeof ACCOUNT_DENIALS)[number];

// ---- Brand and the sign-in pages (#28 realm): what forum-web, admin-web and the identity realm's pages share
/** The product's name and colours: the apps' MUI themes and the realm's own pages read them from here. */
export const BRAND = {
  name: 'Forum',
  /** White text on it passes WCAG AA (7.7:1); the apps' app bar, buttons and links. */
  primary: '#3949ab',
  secondary: '#00796b',
  background: '#f4f5fa',
} as const;
/**
 * Where the forum records a signed-in member (POST with their token, no body; idempotent): the apps
 * call it once after each sign-in. Reads never register anyone (docs/architecture.md).
 */
export const REGISTRATION_PATH = '/api/me/registration';
/** The forum's join pages (spec §2 routes): where the realm's header sends a visitor with no sign-in under way. */
export const JOIN_US_PATH = '/joinUs';
export const JOIN_US_REGISTER_PATH = '/joinUs/register';
/**
 * A registration tells the app so in its authorization response: `kc_action=REGISTER_ACTION` with
 * `kc_action_status=success`, the parameters Keycloak sends after an application-initiated action
 * (keycloak-js hands them to `onActionUpdate`). docs/identity-pages.md says how Keycloak can send them.
 */
export const REGISTER_ACTION = 'register';

// ---- Moderation beyond comments (issue #43, docs/moderation.md)
/** A member (`user`), a moderator (issue #43: works the queue, hides, locks, pins, warns, suspends) or an admin (all of it and more). */
export const ROLES = ['user', 'moderator', 'admin'] as const;
export type Role = (typeof ROLES)[number];
/** The roles of staff: who moderates. */
export const STAFF_ROLES: readonly Role[] = ['moderator', 'admin'];
export const isStaffRole = (role: Role): boolean => STAFF_ROLES.includes(role);
/** At most this many posts are pinned at once. */
export const PINNED_MAX = 3;
/** How many of an item's reports a row of the moderators' queue lists (the oldest of its round); `reportCount` says how many there are. */
export const QUEUE_REPORTS_SHOWN = 20;
/** The longest reason staff give for hiding, locking or suspending. */
export const MODERATION_REASON_MAX = 500;
/**
 * How long a suspension lasts: a day or a week from now, up to a date staff choose, or until staff
 * lift it.
 */
export const SUSPENSION_PERIODS = ['day', 'week', 'date', 'indefinite'] as const;
export type SuspensionPeriod = (typeof SUSPENSION_PERIODS)[number];
/** The fixed periods' lengths. */
export const SUSPENSION_PERIOD_SECONDS: Readonly<Record<'day' | 'week', number>> = { day: 24 * 60 * 60, week: 7 * 24 * 60 * 60 };
/** The furthest date a suspension may end at (longer is `indefinite`). */
export const SUSPENSION_MAX_DAYS = 3650;
