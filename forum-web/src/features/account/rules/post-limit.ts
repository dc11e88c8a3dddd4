import { FREE_POST_LIMIT, POST_LIMIT_WARNING_FROM } from '@forum/contracts';

/**
 * Spec §2 Create New Post / §9: a free user sees how many of the free posts they used,
 * a warning from POST_LIMIT_WARNING_FROM, and at FREE_POST_LIMIT a panel instead of the form.
 * Members have no limit and see neither.
 */
export type PostLimitState =
  { kind: 'member' } | { kind: 'free'; count: number; limit: number; warning: boolean } | { kind: 'reached'; count: number; limit: number };

export function postLimitState(count: number, isMember: boolean): PostLimitState {
  if (isMember) return { kind: 'member' };
  if (count >= FREE_POST_LIMIT) return { kind: 'reached', count, limit: FREE_POST_LIMIT };
  return { kind: 'free', count, limit: FREE_POST_LIMIT, warning: count >= POST_LIMIT_WARNING_FROM };
}
