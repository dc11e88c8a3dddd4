import type { EventStore } from '@forum/eventstore';
import type { Metrics } from '@forum/platform';
import type { UserDirectory } from '../lookup/users.ts';
import type { PaymentProvider } from '../payment/port.ts';
import type { Identity } from './actor.ts';
import { createAnnouncementCommands } from './announcement/commands.ts';
import { createCommandHandler, type Accepted } from './command-handler.ts';
import { createCommentCommands } from './comment/commands.ts';
import { createContactCommands } from './contact/commands.ts';
import { countedCommands } from './counted.ts';
import { createFollowCommands } from './follow/commands.ts';
import { createHandleCommands } from './handle/commands.ts';
import type { Costs, WriteLimits } from './limits.ts';
import { createModerationCommands, type RoleWritten } from './moderation/commands.ts';
import { createNotificationCommands } from './notification/commands.ts';
import { createNotificationPreferenceCommands } from './notification/preferences.ts';
import { createOperationsCommands } from './operations/commands.ts';
import { createPostCommands } from './post/commands.ts';
import { createReportCommands } from './report/commands.ts';
import { createTagCommands } from './tag/commands.ts';
import { tracedCommands } from './traced-commands.ts';
import { createUserCommands } from './user/commands.ts';
import { createErasureCommands } from './user/erasure.ts';
import { createMembershipCommands } from './user/membership.ts';
import { createVoteCommands } from './vote/commands.ts';

export interface ForumCommandsOptions {
  /** Emails that are admins from their first sign-in (lower case). */
  readonly adminEmails: readonly string[];
  /** Needed only by the membership purchase (tools like forumctl run without one). */
  readonly payment?: PaymentProvider;
  /** A membership purchase with no outcome after this long is resumed by the next request (crash recovery). */
  readonly purchaseStaleAfterMs?: number;
  /** The members' write limits (and the Contact page's); none: unlimited (tools, the demo data). */
  readonly limits?: WriteLimits;
  /** Finds what an erasure takes with it when the member chooses so (without one, their text is erased but their posts stay, by 'Deleted user'). */
  readonly directory?: Pick<UserDirectory, 'contentOf'>;
  /** Told after a member's handle was recorded, to keep the identity provider's copy (realmHandleWriter); none: nobody is told. */
  readonly handleWritten?: (userId: string, handle: string) => void;
  /** Told after a member's moderator role was granted or revoked, to keep the identity provider's copy (realmRoleWriter); none: nobody is told. */
  readonly roleWritten?: RoleWritten;
  /** The process's metrics: each command is counted by name and outcome (countedCommands); none: not counted. */
  readonly metrics?: Metrics;
}

/**
 * The forum's command side: the commands of each stream type (`<stream>/commands.ts`), each a
 * decider and its wiring to the command handler, which reads the streams, decides and appends
 * (command-handler.ts); each inside a span (tracedCommands).
 */
export function createForumCommands(store: EventStore, options: ForumCommandsOptions) {
  const handler = createCommandHandler(store, options.adminEmails);
  // without limits a write costs nothing to take (and its idempotent append needs no key held first: see execute)
  const { limits } = options;
  const cost: Costs = limits ? (kind, key) => () => limits.take(kind, key) : () => undefined;

  const commands = tracedCommands({
    ...createUserCommands(handler),
    ...createHandleCommands(handler, cost, options.handleWritten),
    ...createMembershipCommands(handler, { payment: options.payment, staleAfterMs: options.purchaseStaleAfterMs ?? 5 * 60_000 }),
    ...createErasureCommands(handler, options.directory),
    ...createPostCommands(handler, cost),
    ...createTagCommands(handler),
    ...createVoteCommands(handler, cost),
    ...createFollowCommands(handler, cost),
    ...createCommentCommands(handler, cost),
    ...createReportCommands(handler, cost),
    ...createNotificationCommands(handler, cost),
    ...createModerationCommands(handler, options.roleWritten),
    ...createNotificationPreferenceCommands(handler, cost),
    ...createAnnouncementCommands(handler),
    ...createContactCommands(handler, cost),
    ...createOperationsCommands(handler),
  });
  return options.metrics ? countedCommands(commands, options.metrics) : commands;
}

export type ForumCommands = ReturnType<typeof createForumCommands>;

export type { Accepted, Identity };
