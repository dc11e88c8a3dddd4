import type { IncomingMessage } from 'node:http';
import { clientAddress, type ProxyTrust } from '@forum/platform';
import type { LoginBackoff } from './login-backoff.ts';
import type { AccountRecord, AccountStore } from './store.ts';

export type PasswordSignIn =
  | { result: 'held'; retryMs: number }
  | { result: 'busy'; retryMs: number }
  | { result: 'wrong'; retryMs: number }
  | { result: 'disabled'; record: AccountRecord }
  | { result: 'ok'; record: AccountRecord };

export function createPasswordSignIn(accounts: AccountStore, backoff: LoginBackoff, trustProxy: ProxyTrust | undefined) {
  /**
   * A sign-in with a password (the login form, the password grant) under the back-off: `held` (or,
   * rarely, `busy`) before the password is checked; `wrong`, with the wait it brings (0: none yet);
   * `disabled` for the right password of a disabled account (counted as a failure: it signs nobody
   * in); `ok` when the back-off has been told it was right.
   */
  async function passwordSignIn(req: IncomingMessage, email: string, password: string): Promise<PasswordSignIn> {
    const attempt = await backoff.attempt(email, clientAddress(req, trustProxy));
    if (attempt.kind === 'held') return { result: 'held', retryMs: attempt.waitMs };
    if (attempt.kind === 'busy') return { result: 'busy', retryMs: attempt.waitMs };
    let record: AccountRecord | null;
    try {
      record = await accounts.authenticate(email, password);
    } catch (error) {
      await attempt.abandoned();
      throw error;
    }
    if (!record) return { result: 'wrong', retryMs: await attempt.failed() };
    if (!record.enabled) {
      await attempt.failed();
      return { result: 'disabled', record };
    }
    await attempt.succeeded();
    return { result: 'ok', record };
  }
  return passwordSignIn;
}
