import { createServer, type AddressInfo, type Socket } from 'node:net';

/** A mail as the test's SMTP server took it: the envelope and the message as sent (dot-unstuffed, lines joined by \n). */
export interface ReceivedMail {
  readonly from: string;
  readonly to: string[];
  readonly data: string;
}

export interface TestSmtpServer {
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  readonly url: string;
  readonly received: ReceivedMail[];
  /** While true, every mail is refused with a temporary failure (451), as a server that is down for a while. */
  refusing: boolean;
  close(): Promise<void>;
}

/** A tiny SMTP server on a free port of 127.0.0.1 (no TLS, no authentication) that keeps what it is sent. */
export function startTestSmtpServer(): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const server = createServer((socket: Socket) => {
    let buffer = '';
    let data: string[] | null = null;
    let envelope: { from: string; to: string[] } = { from: '', to: [] };
    socket.write('220 localhost ESMTP test\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (data) {
          if (line === '.') {
            received.push({ ...envelope, data: data.join('\n') });
            envelope = { from: '', to: [] };
            data = null;
            socket.write('250 OK queued\r\n');
          } else data.push(line.startsWith('..') ? line.slice(1) : line);
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250-localhost\r\n250 8BITMIME\r\n');
        else if (verb === 'MAIL') {
          if (smtp.refusing) {
            socket.write('451 try again later\r\n');
            continue;
          }
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
  const smtp: TestSmtpServer = {
    url: '',
    received,
    refusing: false,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      resolve(Object.assign(smtp, { url: `smtp://127.0.0.1:${(server.address() as AddressInfo).port}` }));
    }),
  );
}

/** The body of a quoted-printable mail, decoded. */
export const decodeQuotedPrintable = (text: string) =>
  text.replace(/=\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
