// The main reads, as `npm run bench -- scale` asks them (infra/src/load/scale-bench.ts): the home
// page (newest and popular), a post, its comments, a tag's page, the tags, the leaderboard.
//   k6 run -e BASE_URL=https://forum.example.com deploy/k6/reads.js
// VUS (50) virtual users for DURATION (1m); each picks the next read in turn.
import http from 'k6/http';
import { check } from 'k6';
import { BASE_URL } from './lib.js';

export const options = {
  vus: Number(__ENV.VUS || 50),
  duration: __ENV.DURATION || '1m',
  thresholds: {
    http_req_failed: ['rate<0.001'],
    'http_req_duration{read:home}': ['p(99)<100'],
    'http_req_duration{read:post}': ['p(99)<100'],
  },
};

/** The most popular post and the first tag (GET /api/tags answers names), read once before the run. */
export function setup() {
  const { posts } = http.get(`${BASE_URL}/api/posts?page=1&sort=popularity`).json();
  const tags = http.get(`${BASE_URL}/api/tags`).json();
  return { post: posts.length > 0 ? posts[0]._id : null, tag: tags.length > 0 ? tags[0] : 'DevOps' };
}

export default function (data) {
  const reads = [
    ['home', '/api/posts?page=1&sort=newest'],
    ['home', '/api/posts?page=1&sort=popularity'],
    ['tag', `/api/posts/search?tag=${encodeURIComponent(data.tag)}&page=1`],
    ['tags', '/api/tags'],
    ['leaderboard', '/api/users/top-voted'],
    ...(data.post
      ? [
          ['post', `/api/posts/${data.post}`],
          ['comments', `/api/comments/${data.post}`],
        ]
      : []),
  ];
  const [read, path] = reads[__ITER % reads.length];
  const answer = http.get(`${BASE_URL}${path}`, { tags: { read } });
  check(answer, { 'answered 200': (r) => r.status === 200 });
}
