import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RealmContext } from '../context.ts';
import { isLocalRequest, methodNotAllowed, sendPage } from '../http.ts';
import { mailboxPage, messagePage } from '../pages/index.ts';

/** The development mailbox: the realm's recent mails, on this machine only, when no SMTP server is set. */
export function createMailbox({ mailer, site }: Pick<RealmContext, 'mailer' | 'site'>) {
  async function mailbox(req: IncomingMessage, res: ServerResponse) {
    if (req.method !== 'GET') return methodNotAllowed(res, 'GET');
    if (mailer.mode !== 'mailbox') {
      sendPage(res, messagePage({ title: 'Not found', message: 'This realm sends its mail through SMTP; there is no local mailbox.', status: 404, site }));
      return;
    }
    if (!isLocalRequest(req)) {
      sendPage(res, messagePage({ title: 'Not available', message: 'The development mailbox can only be opened from this machine.', status: 403, site }));
      return;
    }
    sendPage(res, mailboxPage(await mailer.recent(50), site));
  }

  return mailbox;
}
