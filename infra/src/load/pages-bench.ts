/**
 * `npm run bench -- pages`: forum-web's public pages as HTML (docs/seo.md) against the JSON of the
 * same read: a post's page rendered (each request a new address, so none is kept), the same page from
 * the memory of kept pages, and the post's JSON from the visitors' cache; each PAGES_ROUNDS (200)
 * times after a warm-up, by a client in another process over HTTP, and the page's size raw and
 * gzipped. `npm start`'s forum in a process of its own, with its demo data (startBenchServer); needs
 * `npm run build:web`.
 */
import os from 'node:os';
import { gzipSync } from 'node:zlib';
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
  const time = async (path: (round: number) => string) => {
    const times: number[] = [];
    let body = '';
    for (let round = -5; round < ROUNDS; round++) {
      const started = performance.now();
      const answer = await fetch(`${forum.base}${path(round)}`);
      body = await answer.text();
      if (answer.status !== 200) throw new Error(`${path(round)}: ${answer.status}`);
      if (round >= 0) times.push(performance.now() - started);
    }
    return { times, body };
  };
  const rendered = await time((round) => `/post/${post._id}?round=${round}`);
  const kept = await time(() => `/post/${post._id}`);
  const json = await time(() => `/api/posts/${post._id}`);
  const line = (what: string, { times, body }: { times: number[]; body: string }) =>
    `${what.padEnd(34)} p50 ${ms(percentile(times, 50)).padStart(9)}  p95 ${ms(percentile(times, 95)).padStart(9)}  ${(Buffer.byteLength(body) / 1024).toFixed(1).padStart(6)} kB, ${(gzipSync(body).length / 1024).toFixed(1).padStart(5)} kB gzip`;
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
