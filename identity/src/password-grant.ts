import { errors, type ResourceServer } from './oidc-provider.ts';
import type Provider from 'oidc-provider';
import type { RealmContext } from './context.ts';
import { idTokenClaims, OIDC_SCOPES } from './provider.ts';
import { tooManyAttemptsMessage, tooManyRequestsMessage } from './throttle.ts';

/** forum-cli: resource owner password grant (Keycloak's "direct access grants"). */
export function registerPasswordGrant(provider: Provider, resourceServer: ResourceServer, { audience, log, passwordSignIn, admins }: RealmContext) {
  const { promoteAdmin } = admins;
  provider.registerGrantType(
    'password',
    async (ctx) => {
      const params = ctx.oidc.params as { username?: unknown; password?: unknown; scope?: unknown };
      const requested = typeof params.scope === 'string' && params.scope.trim() ? params.scope.trim().split(/\s+/) : ['openid'];
      const unsupported = requested.filter((scope) => !OIDC_SCOPES.includes(scope));
      if (unsupported.length) throw new errors.InvalidScope('requested scope is not allowed', unsupported.join(' '));
      if (typeof params.username !== 'string' || typeof params.password !== 'string' || !params.username || !params.password) {
        throw new errors.InvalidRequest("missing required parameters 'username' and 'password'");
      }
      const client = ctx.oidc.client;
      // throttled: 400 invalid_grant like any refused sign-in (Keycloak's answer), saying when to try again
      const refuseThrottled = (retryMs: number) => {
        log.info({ clientId: client.clientId, grantType: 'password' }, 'sign-in refused: too many failed attempts');
        ctx.set('Retry-After', String(Math.ceil(retryMs / 1000)));
        return new errors.CustomOIDCProviderError('invalid_grant', tooManyAttemptsMessage(retryMs));
      };
      const outcome = await passwordSignIn(ctx.req, params.username, params.password);
      if (outcome.result === 'held') throw refuseThrottled(outcome.retryMs);
      if (outcome.result === 'busy') {
        log.warn({ clientId: client.clientId, grantType: 'password' }, 'sign-in refused: sign-ins in flight did not end in time');
        ctx.set('Retry-After', String(Math.ceil(outcome.retryMs / 1000)));
        throw new errors.CustomOIDCProviderError('invalid_grant', tooManyRequestsMessage(outcome.retryMs));
      }
      if (outcome.result === 'wrong') {
        if (outcome.retryMs) throw refuseThrottled(outcome.retryMs);
        log.info({ clientId: client.clientId, grantType: 'password' }, 'sign-in refused: invalid credentials');
        throw new errors.CustomOIDCProviderError('invalid_grant', 'Invalid user credentials');
      }
      const { record } = outcome;
      if (outcome.result === 'disabled') {
        log.info({ clientId: client.clientId, accountId: record.id, grantType: 'password' }, 'sign-in refused: account disabled');
        throw new errors.CustomOIDCProviderError('invalid_grant', 'Account disabled');
      }
      await promoteAdmin(record);
      // Keycloak's default client scopes apply even when not asked for
      const scopes = new Set(['openid', 'email', 'profile'].filter((s) => requested.includes(s) || s !== 'openid'));
      const scope = [...scopes].join(' ');

      const token = new provider.AccessToken({
        accountId: record.id,
        client,
        gty: 'password',
        grantId: undefined as unknown as string, // nothing to revoke: JWT access tokens are not stored
      });
      token.resourceServer = new provider.ResourceServer(audience, resourceServer);
      token.scope = scope;
      const accessToken = await token.save();

      let idToken: string | undefined;
      if (scopes.has('openid')) {
        const id = new provider.IdToken(idTokenClaims(record), { ctx });
        (id as unknown as { scope: string }).scope = scope;
        idToken = await id.issue({ use: 'idtoken' });
      }
      log.info({ clientId: client.clientId, accountId: record.id, grantType: 'password' }, 'signed in');
      ctx.body = {
        access_token: accessToken,
        expires_in: token.expiration,
        refresh_expires_in: 0,
        token_type: 'Bearer',
        ...(idToken ? { id_token: idToken } : {}),
        'not-before-policy': 0,
        scope,
      };
    },
    ['username', 'password', 'scope'],
  );
}
