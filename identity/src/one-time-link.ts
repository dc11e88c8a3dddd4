import type { AccountRecord } from './store.ts';
import type { RealmContext } from './context.ts';

export const RESET_TOKEN_KIND = 'reset-password';
export const VERIFY_TOKEN_KIND = 'verify-email';
export const RESET_TOKEN_TTL_SECONDS = 30 * 60;

export function createMailLink({ accounts, issuer, mailer }: Pick<RealmContext, 'accounts' | 'issuer' | 'mailer'>) {
  /** A one-time link for `account` (only its hash is kept), in the mail `compose` writes around it. */
  async function mailLink(
    account: AccountRecord,
    action: { kind: string; path: string; ttlSeconds: number; interactionUid: string | null },
    compose: (link: string) => { subject: string; text: string; html: string },
  ) {
    const token = await accounts.issueActionToken(action.kind, account.id, action.ttlSeconds, action.interactionUid);
    const link = `${issuer}${action.path}?key=${token}`;
    await mailer.send({ to: account.email, ...compose(link), link });
  }
  return mailLink;
}

export type MailLink = ReturnType<typeof createMailLink>;
