import { CommandAccepted, EraseAccountRequest, NoBody, updateMeRequest } from '@forum/contracts';
import { principalOfRequest } from '@forum/platform';
import type { CommandAppDeps, CommandRoutes } from './deps.ts';
import { accepted, commandMeta, identityOf, memberCallOf, sendAccepted } from './context.ts';

export function meRoutes(api: CommandRoutes, { commands, clock, forumOrigin }: CommandAppDeps): void {
  const UpdateMeRequest = updateMeRequest(forumOrigin);

  /** The display name and photo of the caller ('Change Photo'). */
  api.patch(
    '/me',
    { schema: { answers: accepted(200), errors: ['HANDLE_TAKEN', 'MEMBER_SUSPENDED', 'RATE_LIMITED'], body: UpdateMeRequest } },
    async (request, reply) => {
      const { identity, meta, idempotency } = memberCallOf(request, clock());
      return sendAccepted(reply, 200, await commands.updateProfile(identity, request.body, meta, idempotency));
    },
  );

  /** Erases the caller's account (docs/security/erasure.md); `content`: whether their posts' and comments' text goes too. */
  api.delete('/me', { schema: { answers: accepted(200), body: EraseAccountRequest } }, async (request, reply) => {
    const { identity, meta, idempotency } = memberCallOf(request, clock());
    return sendAccepted(reply, 200, await commands.eraseOwnAccount(identity, request.body.content, meta, idempotency));
  });

  /**
   * Records the caller's first authenticated request. The query side calls it
   * (with the caller's token) when it meets a subject it does not know yet.
   */
  api.post('/me/registration', { schema: { answers: accepted(200, CommandAccepted, { keyed: false }), body: NoBody } }, async (request, reply) => {
    const principal = principalOfRequest(request);
    return sendAccepted(reply, 200, await commands.registerUser(identityOf(principal), commandMeta(request, principal, clock())));
  });
}
