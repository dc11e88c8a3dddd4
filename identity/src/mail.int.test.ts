import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESET_SENT_MESSAGE } from './messages.ts';
import { CookieJar, formAction, formValue, startHarness, type Harness } from './test-support.ts';

/** Password-reset mail through SMTP (nodemailer for real), against a tiny SMTP server of the test. */
const PASSWORD = 'Forum#2026';
const NEW_PASSWORD = 'Smtp!Works7';

interface Received {
  from: string;
  to: string[];
  data: string;
}

let smtp: Server;
let smtpUrl: string;
const received: Received[] = [];
let h: Harness;

function startSmtp(): Promise<void> {
  smtp = createServer((socket: Socket) => {
    let buffer = '';
    let data: string[] | null = null;
    let envelope: Received = { from: '', to: [], data: '' };
    socket.write('220 localhost ESMTP test\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (data) {
          if (line === '.') {
            received.push({ ...envelope, data: data.join('\n') });
            envelope = { from: '', to: [], data: '' };
            data = null;
            socket.write('250 OK queued\r\n');
          } else data.push(line.startsWith('..') ? line.slice(1) : line);
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250-localhost\r\n250 8BITMIME\r\n');
        else if (verb === 'MAIL') {
          envelope.from = /<([^>]*)>/.exec(line)?.[1] ?? '';
          socket.write('250 OK\r\n');
        } else if (verb === 'RCPT') {
          envelope.to.push(/<([^>]*)>/.exec(line)?.[1] ?? '');
          socket.write('250 OK\r\n');
        } else if (verb === 'DATA') {
          data = [];
          socket.write('354 go ahead\r\n');
        } else if (verb === 'QUIT') {
          socket.end('221 bye\r\n');
        } else socket.write('250 OK\r\n');
      }
    });
    socket.on('error', () => {});
  });
  return new Promise((resolve) =>
    smtp.listen(0, '127.0.0.1', () => {
      smtpUrl = `smtp://127.0.0.1:${(smtp.address() as AddressInfo).port}`;
      resolve();
    }),
  );
}

/** The body of a quoted-printable mail, decoded. */
const decodeQuotedPrintable = (text: string) =>
  text.replace(/=\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

beforeAll(async () => {
  await startSmtp();
  h = await startHarness({ mail: { smtpUrl, from: 'Forum Test <no-reply@forum.test>' } });
  await h.realm.accounts.create({ email: 'bob@forum.local', password: PASSWORD, name: 'Bob' });
});

afterAll(async () => {
  await h?.close();
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
});

describe('password-reset mail through SMTP', () => {
  it('sends the link from MAIL_FROM to the account, and there is no local mailbox', async () => {
    const jar = new CookieJar();
    const html = await (await h.get(`${h.issuer}/login-actions/reset-credentials`, jar)).text();
    const res = await h.postForm(formAction(html), { csrf: formValue(html, 'csrf'), email: 'BOB@forum.local' }, jar);
    expect(await res.text()).toContain(RESET_SENT_MESSAGE);
    await h.restart(); // closing waits for the mail to go out

    expect(received).toHaveLength(1);
    const mail = received[0]!;
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
