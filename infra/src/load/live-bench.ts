/**
 * `npm run bench -- live`: the change stream (docs/live.md) of one forum process.
 *   1. LIVE_IDLE (10,000) idle streams (topic posts) from raw sockets of this process: how many the
 *      forum holds, its resident memory before and after, and so the memory a stream costs;
 *   2. LIVE_CLIENTS (1,000) streams on `posts` and one post's topic, and LIVE_COMMANDS (20) commands
 *      one after the other (new posts, comments on that post): the time from each command's HTTP
 *      answer to its message's arrival at every client, p50 and p99 over all of them.
 * The forum runs in its own process (startBenchServer), as `npm start` runs it.
 */
import { connect, type Socket } from 'node:net';
import { benchWriters, memoryOf, startBenchServer } from './server.ts';
import { ms, percentile } from './stats.ts';

const IDLE = Number(process.env.LIVE_IDLE ?? 10_000);
const CLIENTS = Number(process.env.LIVE_CLIENTS ?? 1_000);
const COMMANDS = Number(process.env.LIVE_COMMANDS ?? 20);
/** Streams opened at once (the server's accept queue is finite). */
const OPENING = 200;

interface Client {
  readonly socket: Socket;
  /** When the id awaited (see `awaiting`) reached this client. */
  arrived: number | null;
  /** The end of what came last (an id split across two reads is still found). */
  tail: string;
}

let awaiting: string | null = null;

/** A stream of `path` on a raw socket; resolves once its `ready` has come. */
function open(port: number, path: string): Promise<Client> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n`));
    const client: Client = { socket, arrived: null, tail: '' };
    let ready = false;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      const text = client.tail + chunk;
      client.tail = text.slice(-80);
      if (!ready) {
        if (!text.startsWith('HTTP/1.1 200')) return reject(new Error(`no stream: ${text.slice(0, 200)}`));
        if (text.includes('event: ready')) {
          ready = true;
          resolve(client);
        }
        return;
      }
      if (awaiting !== null && client.arrived === null && text.includes(awaiting)) client.arrived = performance.now();
    });
    socket.on('error', reject);
  });
}

async function openMany(port: number, path: string, count: number): Promise<Client[]> {
  const clients: Client[] = [];
  while (clients.length < count)
    clients.push(...(await Promise.all(Array.from({ length: Math.min(OPENING, count - clients.length) }, () => open(port, path)))));
  return clients;
}

const settle = (millis: number) => new Promise((resolve) => setTimeout(resolve, millis));

// every client of the bench comes from one address: its share is the whole process's
const server = await startBenchServer({ env: { STREAM_MAX_PER_CLIENT: '1000000' } });
try {
  const port = Number(new URL(server.base).port);
  const [writer] = await (await benchWriters(server, 1, 'live-writer')).tokens();
  const call = async (path: string, body: unknown) => {
    const response = await fetch(`${server.base}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${writer}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status !== 201) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as { id: string };
  };

  // ── 1. idle streams ──
  await settle(2000);
  const before = await memoryOf(server.pid);
  const opening = performance.now();
  const idle = await openMany(port, '/api/stream?topics=posts', IDLE);
  const openedIn = performance.now() - opening;
  await settle(3000);
  const held = idle.filter((client) => !client.socket.destroyed).length;
  const after = await memoryOf(server.pid);
  for (const client of idle) client.socket.destroy();

  // ── 2. time to every client ──
  const { id: postId } = await call('/api/posts', { title: 'Followed live', description: 'The bench comments here', tags: [] });
  await settle(1000);
  const clients = await openMany(port, `/api/stream?topics=posts,post:${postId}`, CLIENTS);
  const latencies: number[] = [];
  const slowest: number[] = [];
  for (let n = 0; n < COMMANDS; n++) {
    for (const client of clients) client.arrived = null;
    // the id is known only from the answer: a message that came before it is found in the tails
    awaiting = null;
    const pending =
      n % 2 === 0
        ? call('/api/posts', { title: `Live ${n}`, description: 'New on the home page', tags: [] })
        : call('/api/comments', { postId, text: `Live comment ${n}` });
    const { id } = await pending;
    const answered = performance.now();
    awaiting = id;
    for (const client of clients) if (client.tail.includes(id)) client.arrived = answered;
    const deadline = performance.now() + 30_000;
    while (clients.some((client) => client.arrived === null) && performance.now() < deadline) await settle(2);
    const times = clients.map((client) => (client.arrived ?? Number.NaN) - answered);
    if (times.some(Number.isNaN)) throw new Error(`command ${n}: ${times.filter(Number.isNaN).length} clients got no message in 30 s`);
    latencies.push(...times);
    slowest.push(Math.max(...times));
    await settle(100);
  }
  for (const client of clients) client.socket.destroy();

  const rows: [string, string][] = [
    ['idle streams asked for', IDLE.toLocaleString('en')],
    ['idle streams held', held.toLocaleString('en')],
    ['opened in', `${(openedIn / 1000).toFixed(1)} s`],
    ['forum RSS before / after', `${before.rssMb.toFixed(0)} MB / ${after.rssMb.toFixed(0)} MB`],
    ['memory per stream', `${(((after.rssMb - before.rssMb) * 1024) / Math.max(1, held)).toFixed(1)} KB`],
    ['clients for the timing', CLIENTS.toLocaleString('en')],
    ['commands (posts and comments)', String(COMMANDS)],
    ['answer → message, p50', ms(percentile(latencies, 50))],
    ['answer → message, p99', ms(percentile(latencies, 99))],
    ['answer → last client, median of commands', ms(percentile(slowest, 50))],
  ];
  const width = Math.max(...rows.map(([name]) => name.length));
  process.stdout.write(`\nThe change stream of one forum process\n${rows.map(([name, value]) => `  ${name.padEnd(width)}  ${value}`).join('\n')}\n`);
} finally {
  await server.stop();
}
