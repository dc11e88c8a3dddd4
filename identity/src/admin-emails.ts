import { normalizeEmail } from '@forum/contracts';
import type { AccountRecord, AccountStore, NewAccount } from './store.ts';

export function createAdminEmails(accounts: AccountStore, listed: readonly string[]) {
  const adminEmails = new Set(listed.map(normalizeEmail).filter(Boolean));
  /**
   * ADMIN_EMAILS make admins only of verified addresses: otherwise whoever registers a listed
   * address first would be admin. An account made verified is admin from the start ...
   */
  const createAccount = (input: NewAccount) =>
    accounts.create({
      ...input,
      roles: [...(input.roles ?? []), ...(input.emailVerified && adminEmails.has(normalizeEmail(input.email ?? '')) ? ['admin'] : [])],
    });
  /** ... one verified later from then on (see emailProven), and one listed later from its next sign-in. */
  async function promoteAdmin(record: AccountRecord) {
    if (record.emailVerified && adminEmails.has(record.email) && !record.roles.includes('admin')) {
      await accounts.addRole(record.id, 'admin');
      record.roles.push('admin');
    }
  }
  /** The owner of the mailbox is known (a verification link followed, a mailed reset done; the caller marked it verified with the link's use): admin when listed. */
  async function emailProven(accountId: string) {
    const record = await accounts.findById(accountId);
    if (record) await promoteAdmin(record);
    return record;
  }
  return { createAccount, promoteAdmin, emailProven };
}

export type AdminEmails = ReturnType<typeof createAdminEmails>;
