import { UnsubscribeQuery, Unsubscribed, UpdateNotificationPreferencesRequest } from '@forum/contracts';
import { z } from 'zod';
import { UnsubscribeLinkInvalid } from '../domain/notification/preferences.ts';
import type { CommandAppDeps, CommandRoutes } from './deps.ts';
import { accepted, memberCallOf, sendAccepted } from './context.ts';
import { correlationIdOf } from '@forum/platform';

/** PUT /api/me/notification-preferences: the caller chooses how each kind reaches them (docs/notifications.md#preferences). */
export function notificationPreferenceRoutes(api: CommandRoutes, { commands, clock }: CommandAppDeps): void {
  api.put(
    '/me/notification-preferences',
    { schema: { answers: accepted(200), errors: ['RATE_LIMITED'], body: UpdateNotificationPreferencesRequest } },
    async (request, reply) => {
      const { identity, meta, idempotency } = memberCallOf(request, clock());
      return sendAccepted(reply, 200, await commands.changeNotificationPreferences(identity, request.body, meta, idempotency));
    },
  );
}

/**
 * RFC 8058's one-click body (`List-Unsubscribe=One-Click`, as a form), or none (forum-web's
 * /unsubscribe page); a JSON body may say the same.
 */
const OneClickBody = z
  .strictObject({ 'List-Unsubscribe': z.literal('One-Click', 'Must be One-Click').optional() }, 'Send List-Unsubscribe=One-Click or nothing')
  .optional();

/**
 * POST /api/unsubscribe?token=…: an email's unsubscribe link, without signing in (the signed token
 * is the proof): the kinds it names reach the member in the app only. Called again, it changes nothing.
 */
export function unsubscribeRoutes(api: CommandRoutes, { commands, clock, unsubscribeTokens }: CommandAppDeps): void {
  api.post(
    '/unsubscribe',
    {
      schema: {
        answers: accepted(200, Unsubscribed, { keyed: false }),
        errors: ['UNSUBSCRIBE_LINK_INVALID'],
        querystring: UnsubscribeQuery,
        body: OneClickBody,
      },
      config: { formBody: true },
    },
    async (request, reply) => {
      const grant = unsubscribeTokens.verify(request.query.token);
      if (!grant) throw new UnsubscribeLinkInvalid();
      const now = clock();
      const meta = { actorId: grant.userId, now, correlationId: correlationIdOf(request.raw), causationId: request.id, requestId: request.id };
      return sendAccepted(reply, 200, await commands.unsubscribe(grant, meta));
    },
  );
}
