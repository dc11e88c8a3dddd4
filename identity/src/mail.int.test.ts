import { decodeQuotedPrintable, startTestSmtpServer, type TestSmtpServer } from '@forum/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESET_SENT_MESSAGE } from './messages.ts';
import { CookieJar, formAction, formValue, startHarness, type Harness } from './test-support.ts';

/** Password-reset mail through SMTP (nodemailer for real), against a tiny SMTP server of the test. */
const PASSWORD = 'Forum#2026';
const NEW_PASSWORD = 'Smtp!Works7';

let smtp: TestSmtpServer;
let h: Harness;

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  h = await startHarness({ mail: { smtpUrl: smtp.url, from: 'Forum Test <no-reply@forum.test>' } });
  await h.realm.accounts.create({ email: 'bob@forum.local', password: PASSWORD, name: 'Bob' });
});

afterAll(async () => {
  await h?.close();
  await smtp?.close();
});

describe('password-reset mail through SMTP', () => {
  it('sends the link from MAIL_FROM to the account, and there is no local mailbox', async () => {
    const jar = new CookieJar();
    const html = await (await h.get(`${h.issuer}/login-actions/reset-credentials`, jar)).text();
    const res = await h.postForm(formAction(html), { csrf: formValue(html, 'csrf'), email: 'BOB@forum.local' }, jar);
    expect(await res.text()).toContain(RESET_SENT_MESSAGE);
    await h.restart(); // closing waits for the mail to go out

    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!;
    expect(mail.from).toBe('no-reply@forum.test');
    expect(mail.to).toEqual(['bob@forum.local']);
    expect(mail.data).toMatch(/^From: Forum Test <no-reply@forum\.test>$/m);
    expect(mail.data).toMatch(/^Subject: Reset your Forum password$/m);
    const link = /(http:\/\/\S+\/login-actions\/action-token\?key=[\w-]{43})/.exec(decodeQuotedPrintable(mail.data))![1]!;

    const resetJar = new CookieJar();
    const page = await (await h.get(link, resetJar)).text();
    const done = await h.postForm(
      formAction(page),
      { csrf: formValue(page, 'csrf'), key: formValue(page, 'key'), password: NEW_PASSWORD, 'password-confirm': NEW_PASSWORD },
      resetJar,
    );
    expect(done.status).toBe(200);
    expect((await h.passwordGrant('bob@forum.local', NEW_PASSWORD)).status).toBe(200);
    expect((await h.passwordGrant('bob@forum.local', PASSWORD)).status).toBe(400);

    expect((await h.get(`${h.issuer}/mailbox`)).status).toBe(404);
  });
});
