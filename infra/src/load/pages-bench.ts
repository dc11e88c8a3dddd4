/**
 * `npm run bench -- pages`: forum-web's public pages as HTML (docs/seo.md) against the JSON of the
 * same read: a post's page rendered (each request a new address, so none is kept), the same page from
 * the memory of kept pages, and the post's JSON from the visitors' cache; each PAGES_ROUNDS (200)
 * times after a warm-up, by a client in another process over HTTP asking as a browser does (gzip
 * accepted; timed to the last byte as sent, the client's inflating apart), and the page's size raw and
 * as sent. `npm start`'s forum in a process of its own, with its demo data (startBenchServer); needs
 * `npm run build:web`.
 */
import os from 'node:os';
import { Agent, request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { HEADER_MIN_POSITION, type PostsPage } from '@forum/contracts';
import { DEMO_ACCOUNTS } from '../embedded/seed.ts';
import { startBenchServer } from './server.ts';
import { ms, percentile } from './stats.ts';

const ROUNDS = Number(process.env.PAGES_ROUNDS ?? 200);
const COMMENTS = 10;
const forum = await startBenchServer();
try {
  const { posts } = (await (await fetch(`${forum.base}/api/posts?sort=popularity`)).json()) as PostsPage;
  const post = posts[0]!;
  // a post with its first page of comments, as the page shows it
  const token = await forum.token(DEMO_ACCOUNTS[0].email);
  let position = '';
  for (let n = 1; n <= COMMENTS; n++) {
    const answer = await fetch(`${forum.base}/api/comments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ postId: post._id, text: `Comment ${n}: **agreed**, with a [link](https://example.org) and a few more words to read.` }),
    });
    if (answer.status !== 201) throw new Error(`a comment: ${answer.status} ${await answer.text()}`);
    ({ position } = (await answer.json()) as { position: string });
  }
  await fetch(`${forum.base}/api/posts/${post._id}`, { headers: { [HEADER_MIN_POSITION]: position } });
  // as a browser asks (gzip accepted), timed to the answer's last byte as it came: the client's own
  // work of inflating it is not the forum's
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const get = (path: string) =>
    new Promise<{ status: number; bytes: Buffer; encoding: string | undefined }>((resolve, reject) => {
      request(`${forum.base}${path}`, { agent, headers: { 'accept-encoding': 'gzip' } }, (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => resolve({ status: answer.statusCode ?? 0, bytes: Buffer.concat(chunks), encoding: answer.headers['content-encoding'] }));
        answer.on('error', reject);
      })
        .on('error', reject)
        .end();
    });
  const time = async (path: (round: number) => string) => {
    const times: number[] = [];
    let body = '';
    let sent = 0;
    for (let round = -5; round < ROUNDS; round++) {
      const started = performance.now();
      const answer = await get(path(round));
      if (round >= 0) times.push(performance.now() - started);
      if (answer.status !== 200) throw new Error(`${path(round)}: ${answer.status}`);
      body = (answer.encoding === 'gzip' ? gunzipSync(answer.bytes) : answer.bytes).toString('utf8');
      sent = answer.bytes.length;
    }
    return { times, body, sent };
  };
  const rendered = await time((round) => `/post/${post._id}?round=${round}`);
  const kept = await time(() => `/post/${post._id}`);
  const json = await time(() => `/api/posts/${post._id}`);
  const line = (what: string, { times, body, sent }: { times: number[]; body: string; sent: number }) =>
    `${what.padEnd(34)} p50 ${ms(percentile(times, 50)).padStart(9)}  p95 ${ms(percentile(times, 95)).padStart(9)}  ${(Buffer.byteLength(body) / 1024).toFixed(1).padStart(6)} kB, ${(sent / 1024).toFixed(1).padStart(5)} kB sent`;
  process.stdout.write(
    [
      `A post's page (${COMMENTS} comments), ${ROUNDS} requests each; load average ${os
        .loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')}`,
      line('page rendered (a new address each)', rendered),
      line('page kept in memory', kept),
      line('the post as JSON (visitors cache)', json),
      '',
    ].join('\n'),
  );
} finally {
  await forum.stop();
}
