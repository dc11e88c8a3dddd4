import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import type { InteractionResults } from 'oidc-provider';
import type { RealmContext } from './context.ts';
import { sendPage } from './http.ts';
import { GOOGLE_UNCONFIGURED } from './messages.ts';
import { messagePage, type GoogleButton } from './pages/index.ts';
import { BROKER_LOGIN_PATH, REALM_PATH } from './paths.ts';
import { FIRST_PARTY, REGISTERED } from './provider.ts';
import type { AccountRecord } from './store.ts';

/** A pending sign-in of oidc-provider (its interaction), as the sign-in pages see it. */
export type Details = Awaited<ReturnType<Provider['interactionDetails']>>;

/** The pending sign-in a page belongs to, and how a sign-in ends: what every sign-in flow shares. */
export function createInteractions(provider: Provider, { publicOrigin, site, google, log, admins }: RealmContext) {
  const { promoteAdmin } = admins;
  const googleButton = (uid: string): GoogleButton =>
    google ? { href: `${REALM_PATH}${BROKER_LOGIN_PATH}?interaction=${uid}` } : { unavailable: GOOGLE_UNCONFIGURED };

  const signedInPage = () =>
    messagePage({
      title: 'You are signed in',
      message: 'You are already signed in to Forum.',
      link: { href: `${publicOrigin}/`, label: 'Back to the forum' },
      site,
    });

  function expiredPage(res: ServerResponse) {
    sendPage(
      res,
      messagePage({
        title: 'Your sign-in page has expired',
        message: 'Go back to the forum and sign in again.',
        status: 400,
        link: { href: `${publicOrigin}/`, label: 'Back to the forum' },
        site,
      }),
    );
  }

  /**
   * The pending sign-in `uid` of this browser (oidc-provider's signed interaction cookie), or null
   * when the answer was sent: the expired page, or the consent step done without a screen.
   */
  async function pendingLogin(req: IncomingMessage, res: ServerResponse, uid: string | null): Promise<Details | null> {
    let details: Details;
    try {
      details = await provider.interactionDetails(req, res);
    } catch {
      // Back to a sign-in page after signing in: say so, rather than that the page expired
      const session = await provider.Session.get(provider.createContext(req, res));
      if (session.accountId) sendPage(res, signedInPage());
      else expiredPage(res);
      return null;
    }
    if (details.uid !== uid) {
      expiredPage(res);
      return null;
    }
    if (details.prompt.name === 'consent') {
      await finishConsent(req, res, details);
      return null;
    }
    if (details.prompt.name !== 'login') {
      expiredPage(res);
      return null;
    }
    return details;
  }

  /** Only reached for clients loadExistingGrant does not cover: grant what is missing, no screen. */
  async function finishConsent(req: IncomingMessage, res: ServerResponse, details: Details) {
    const missing = details.prompt.details as {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    const accountId = details.session?.accountId;
    const clientId = String(details.params.client_id);
    if (!accountId || !FIRST_PARTY.has(clientId)) {
      await provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'consent required' });
      return;
    }
    const grant = (details.grantId ? await provider.Grant.find(details.grantId) : undefined) ?? new provider.Grant({ accountId, clientId });
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope);
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) grant.addResourceScope(indicator, scopes);
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  }

  /** `registered`: the account was made by this sign-in (the authorization response says so, see below). */
  async function signIn(req: IncomingMessage, res: ServerResponse, details: Details, record: AccountRecord, how: string, amr?: string[], registered = false) {
    await promoteAdmin(record);
    log.info({ clientId: details.params.client_id, accountId: record.id, method: how }, 'signed in');
    const result: InteractionResults = { login: { accountId: record.id, ...(amr ? { amr } : {}) }, ...(registered ? { [REGISTERED]: true } : {}) };
    await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
  }

  return { googleButton, expiredPage, pendingLogin, signIn };
}

export type Interactions = ReturnType<typeof createInteractions>;
