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
export const SEARCH_QUERY_MAX = 200;
/**
 * Full-text search (`?q=`) ranks the newest SEARCH_MATCH_CAP matches at most: its total is exact
 * up to this many and 'more than SEARCH_MATCH_CAP' above (`totalCountCapped`), so a common word
 * costs what a rare one does.
 */
export const SEARCH_MATCH_CAP = 1000;
/** The spec's unpaged calls (`/posts/search?tag=` without `page`, the reported comments) answer at most this many rows. */
export const UNPAGED_LIST_MAX = 100;

/** Admin area and Contact page: limits the spec leaves open. */
export const ANNOUNCEMENT_TITLE_MAX = 200;
export const ANNOUNCEMENT_DESCRIPTION_MAX = 5_000;
export const CONTACT_NAME_MAX = 100;
export const CONTACT_EMAIL_MAX = 254;
export const CONTACT_MESSAGE_MAX = 5_000;
/** Contact messages accepted per client address in a sliding window; beyond, 429 RATE_LIMITED. */
export const CONTACT_RATE_LIMIT = { messages: 5, windowMs: 10 * 60_000 } as const;
export const ADMIN_SEARCH_MAX = 100;

export const POST_SORTS = ['newest', 'popularity'] as const;
export type PostSort = (typeof POST_SORTS)[number];

/** Spec §5: checked in this order, each with its own message. */
export const PASSWORD_SPECIALS = `!@#$%^&*()-_=+[{]}\\|;:'",<.>/?`;
export const PASSWORD_RULES = [
  { test: (p: string) => p.length >= 8, message: 'Password should be more 8 character' },
  { test: (p: string) => /[A-Z]/.test(p), message: 'Password must 1 uppercase letter.' },
  { test: (p: string) => /[a-z]/.test(p), message: 'Password must 1 lowercase letter.' },
  { test: (p: string) => [...p].some((c) => PASSWORD_SPECIALS.includes(c)), message: 'Password must 1 special character.' },
] as const;
export const PASSWORD_MISMATCH_MESSAGE = 'Password and Confirm Password must match';

/** The first rule a password breaks, or null when it passes all of them. */
export function passwordProblem(password: string): string | null {
  return PASSWORD_RULES.find((rule) => !rule.test(password))?.message ?? null;
}

/**
 * Card preview: the description cut at SUMMARY_LENGTH characters (not UTF-16
 * units), then '...'. In SQL, over the text expression `description`: the
 * read model computes it where it writes the post.
 */
export function summarizeSql(description: string): string {
  return `CASE WHEN length(${description}) > ${SUMMARY_LENGTH} THEN left(${description}, ${SUMMARY_LENGTH}) || '...' ELSE ${description} END`;
}

/** Erasure (issue #27 item 7; docs/security/erasure.md). */
/** Who an erased member's posts and comments are by, when their text is kept. */
export const DELETED_USER_NAME = 'Deleted user';
/** What history and export show in place of an erased field. */
export const ERASED_MARK = '[erased]';
/** What a member chooses for the text of their posts and comments when they erase their account. */
export const ERASED_CONTENT_CHOICES = ['keep', 'erase'] as const;
export type ErasedContentChoice = (typeof ERASED_CONTENT_CHOICES)[number];
