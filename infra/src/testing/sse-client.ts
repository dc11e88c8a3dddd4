import { request, type IncomingHttpHeaders } from 'node:http';

/** One Server-Sent Events message as a client reads it. */
export interface SseMessage {
  readonly id: string | undefined;
  readonly event: string;
  readonly data: Record<string, unknown>;
}

/** A change stream read by a test, as an EventSource would read it (Node 20 has no EventSource). */
export interface SseStream {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** Every message so far, in order. */
  readonly messages: readonly SseMessage[];
  /** Comment lines (heartbeats) so far. */
  readonly pings: number;
  /** The body of an answer that is not a stream (an error). */
  readonly body: string;
  /** True once the server ended the stream or the connection closed. */
  readonly ended: boolean;
  /** The first message from index `from` on that `match` takes, as it arrives (fails after `timeoutMs`, listing what came). */
  next(match: (message: SseMessage) => boolean, options?: { from?: number; timeoutMs?: number }): Promise<SseMessage>;
  /** Resolves when `condition` holds of the stream (checked on every arrival; fails after `timeoutMs`). */
  until(condition: (stream: SseStream) => boolean, timeoutMs?: number): Promise<void>;
  close(): void;
}

/** Opens `path` of `base` as a stream; resolves once the answer's head has come. */
export function openStream(base: string, path: string, headers: Record<string, string> = {}): Promise<SseStream> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { Accept: 'text/event-stream', ...headers } }, (res) => {
      const messages: SseMessage[] = [];
      const checks = new Set<() => void>();
      let pending = '';
      let pings = 0;
      let body = '';
      let ended = false;
      const changed = () => {
        for (const check of [...checks]) check();
      };
      const stream: SseStream = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        messages,
        get pings() {
          return pings;
        },
        get body() {
          return body;
        },
        get ended() {
          return ended;
        },
        next(match, { from = 0, timeoutMs = 15_000 } = {}) {
          let found: SseMessage | undefined;
          return stream.until(() => (found = messages.slice(from).find(match)) !== undefined, timeoutMs).then(() => found!);
        },
        until(condition, timeoutMs = 15_000) {
          if (condition(stream)) return Promise.resolve();
          return new Promise<void>((done, fail) => {
            const check = () => {
              if (!condition(stream)) return;
              checks.delete(check);
              clearTimeout(timer);
              done();
            };
            const timer = setTimeout(() => {
              checks.delete(check);
              fail(new Error(`the stream ${path} did not get there in ${timeoutMs} ms; it got ${JSON.stringify(messages)} (ended: ${ended})`));
            }, timeoutMs);
            checks.add(check);
          });
        },
        close: () => req.destroy(),
      };
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (!String(res.headers['content-type']).startsWith('text/event-stream')) {
          body += chunk;
          return;
        }
        pending += chunk;
        let end: number;
        while ((end = pending.indexOf('\n\n')) >= 0) {
          const block = pending.slice(0, end);
          pending = pending.slice(end + 2);
          const fields = parseBlock(block);
          if (fields === 'comment') pings += 1;
          else if (fields) messages.push(fields);
        }
        changed();
      });
      res.on('close', () => {
        ended = true;
        changed();
      });
      res.on('error', () => {});
      resolve(stream);
    });
    req.on('error', reject);
    req.end();
  });
}

function parseBlock(block: string): SseMessage | 'comment' | null {
  let id: string | undefined;
  let event = 'message';
  const data: string[] = [];
  let comment = false;
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) comment = true;
    else if (line.startsWith('id: ')) id = line.slice(4);
    else if (line.startsWith('event: ')) event = line.slice(7);
    else if (line.startsWith('data: ')) data.push(line.slice(6));
  }
  if (data.length === 0) return comment ? 'comment' : null;
  return { id, event, data: JSON.parse(data.join('\n')) as Record<string, unknown> };
}
