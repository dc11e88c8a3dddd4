import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkPhotoUrl, checkText, isEmail, normalizeEmail } from '@forum/contracts';
import { clientAddress, ConflictError } from '@forum/platform';
import { BrokerError, GOOGLE } from '../broker.ts';
import type { RealmContext } from '../context.ts';
import { methodNotAllowed, redirect, sendPage } from '../http.ts';
import type { Interactions } from '../interaction.ts';
import { DISABLED_MESSAGE, GOOGLE_UNCONFIGURED, UNVERIFIED_GOOGLE_MESSAGE } from '../messages.ts';
import { messagePage, type Page } from '../pages/index.ts';
import { UID } from '../paths.ts';
import { ACCOUNT_NAME, fitAccountName } from '../store.ts';

/** Sign-in with Google through the broker: start, and the callback that links, creates or takes back an account. */
export function createGoogleFlow(
  { site, log, publicOrigin, trustProxy, backoff, accounts, admins, google }: RealmContext,
  { expiredPage, pendingLogin, signIn }: Interactions,
  loginView: (uid: string, options: { email: string; error?: string; status?: number }) => Page,
) {
  const { createAccount } = admins;
  async function brokerLogin(req: IncomingMessage, res: ServerResponse, query: URLSearchParams) {
    if (req.method !== 'GET') return methodNotAllowed(res, 'GET');
    const uid = query.get('interaction');
    const details = await pendingLogin(req, res, uid && UID.test(uid) ? uid : null);
    if (!details) return;
    if (!google) {
      sendPage(res, loginView(details.uid, { email: '', error: GOOGLE_UNCONFIGURED, status: 404 }));
      return;
    }
    let location: string;
    try {
      const hint =
        typeof details.params.login_hint === 'string' && isEmail(normalizeEmail(details.params.login_hint))
          ? normalizeEmail(details.params.login_hint)
          : undefined;
      location = await google.start(details.uid, hint);
    } catch (err) {
      log.warn({ err }, 'Google sign-in could not start');
      sendPage(res, loginView(details.uid, { email: '', error: 'Google sign-in is not available right now. Please try again later.', status: 502 }));
      return;
    }
    redirect(res, location);
  }

  async function brokerEndpoint(req: IncomingMessage, res: ServerResponse, query: URLSearchParams) {
    if (req.method !== 'GET') return methodNotAllowed(res, 'GET');
    if (!google) {
      sendPage(res, messagePage({ title: 'Not found', message: GOOGLE_UNCONFIGURED, status: 404, site }));
      return;
    }
    const claimed = await google.claimState(query.get('state'));
    if (!claimed) return expiredPage(res);
    // the browser that started this sign-in must be the one finishing it
    const details = await pendingLogin(req, res, claimed.interactionUid);
    if (!details) return;
    const uid = details.uid;
    const refuse = (error: string, status: number) => sendPage(res, loginView(uid, { email: '', error, status }));

    let identity;
    try {
      identity = await google.finish(query, claimed);
    } catch (err) {
      if (err instanceof BrokerError) return refuse(err.message, err.reason === 'cancelled' ? 200 : 400);
      throw err;
    }
    let record = await accounts.findLinked(GOOGLE, identity.subject);
    let created = false;
    if (!record) {
      if (!identity.emailVerified) {
        log.info({ provider: GOOGLE }, 'sign-in refused: upstream email not verified');
        return refuse(UNVERIFIED_GOOGLE_MESSAGE, 403);
      }
      record = await accounts.findByEmail(identity.email);
      if (!record) {
        // Google's name when the forum's text policy takes it (cut to its length), else the email's local part
        const name = checkText(fitAccountName(identity.name), ACCOUNT_NAME);
        try {
          await createAccount({
            email: identity.email,
            password: null,
            name: name.ok ? name.value : identity.email.split('@')[0]!,
            picture: checkPhotoUrl(identity.picture, publicOrigin).ok ? identity.picture : '',
            emailVerified: true,
          });
          created = true;
        } catch (err) {
          if (!(err instanceof ConflictError)) throw err; // made meanwhile: use it
        }
        record = await accounts.findByEmail(identity.email);
        if (!record) throw new Error('account vanished after creation');
      } else if (!record.emailVerified && (await accounts.takeBackUnverified(record.id))) {
        // whoever registered this address first never proved it (account pre-hijacking): Google proves the
        // mailbox, so its owner gets the account and the first registrant's password and sign-ins end (Firebase's rule)
        await backoff.forgetFamiliar(record.email);
        log.info({ accountId: record.id, provider: GOOGLE }, 'unverified account taken back by the verified owner: password dropped, sessions ended');
        record = (await accounts.findById(record.id))!;
      }
      await accounts.link(GOOGLE, identity.subject, record.id, identity.email);
    }
    if (!record.enabled) {
      log.info({ accountId: record.id }, 'sign-in refused: account disabled');
      return refuse(DISABLED_MESSAGE, 403);
    }
    if (created) log.info({ accountId: record.id, provider: GOOGLE }, 'account registered');
    await backoff.proven(record.email, clientAddress(req, trustProxy));
    await signIn(req, res, details, record, GOOGLE);
  }

  return { brokerLogin, brokerEndpoint };
}
