/**
 * `npm run bench -- pages`: forum-web's public pages as HTML (docs/seo.md) against the JSON of the
 * same read: a post's page rendered (each request a new address, so none is kept), the same page from
 * the memory of kept pages, and the post's JSON from the visitors' cache; each PAGES_ROUNDS (200)
 * times after a warm-up, by a client in the same process over HTTP, and the page's size raw and
 * gzipped. The whole forum with its demo data (startTestForum); needs `npm run build:web`.
 */
import os from 'node:os';
import { gzipSync } from 'node:zlib';
import type { PostsPage } from '@forum/contracts';
import { startTestForum } from '../testing/forum.ts';
import { ms, percentile } from './stats.ts';

const ROUNDS = Number(process.env.PAGES_ROUNDS ?? 200);
const forum = await startTestForum();
try {
  const { posts } = (await (await fetch(`${forum.url}/api/posts?sort=popularity`)).json()) as PostsPage;
  const post = [...posts].sort((a, b) => b.commentCount - a.commentCount)[0]!;
  const time = async (path: (round: number) => string) => {
    const times: number[] = [];
    let body = '';
    for (let round = -5; round < ROUNDS; round++) {
      const started = performance.now();
      const answer = await fetch(`${forum.url}${path(round)}`);
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
      `A post's page (${post.commentCount} comments), ${ROUNDS} requests each; load average ${os
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
