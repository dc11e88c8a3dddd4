// The main commands, as the benches send them (infra/src/load/slice-bench.ts, scale-bench.ts):
// posts created, votes set, comments written, by Gold members in turn; and the projection lag a
// member sees: from a command's answer until a read passing its X-Event-Position has it.
//   k6 run -e BASE_URL=https://forum.example.com -e WRITER_EMAILS=a@x,b@x -e WRITER_PASSWORD=… deploy/k6/writes.js
// The writers must be Gold members (no free post limit) and able to use the password grant.
import http from 'k6/http';
import { check } from 'k6';
import { Trend } from 'k6/metrics';
import { BASE_URL, HEADER_EVENT_POSITION, HEADER_MIN_POSITION, HEADER_READ_BEHIND, json, writers } from './lib.js';

const projectionLag = new Trend('projection_lag', true);

export const options = {
  vus: Number(__ENV.VUS || 16),
  duration: __ENV.DURATION || '1m',
  thresholds: {
    http_req_failed: ['rate<0.001'],
    projection_lag: ['p(99)<1000'],
  },
};

/** The writers (two at least), each with one post of theirs that the others vote on. */
export function setup() {
  const members = writers();
  if (members.length < 2) throw new Error('WRITER_EMAILS: two writers at least (a member cannot vote on their own post)');
  return {
    writers: members.map((writer, n) => {
      const post = http.post(
        `${BASE_URL}/api/posts`,
        JSON.stringify({ title: `k6 vote target ${n}`, description: 'Voted on by deploy/k6/writes.js.', tags: ['DevOps'] }),
        json(writer.token),
      );
      if (post.status !== 201) throw new Error(`the vote target of ${writer.email}: ${post.status} ${post.body}`);
      return { ...writer, post: post.json('id') };
    }),
  };
}

export default function (data) {
  const writer = data.writers[(__VU - 1) % data.writers.length];
  // the next writer's post: never one's own (422 OWN_POST_VOTE); up and back, iteration by iteration
  const other = data.writers[__VU % data.writers.length];
  const created = http.post(
    `${BASE_URL}/api/posts`,
    JSON.stringify({ title: `k6 post ${__VU}-${__ITER}`, description: 'Written by deploy/k6/writes.js. '.repeat(6), tags: ['DevOps'] }),
    { ...json(writer.token), tags: { command: 'create a post' } },
  );
  if (!check(created, { 'post created (201)': (r) => r.status === 201 })) return;
  const { id } = created.json();
  const answered = Date.now();
  const position = created.headers[HEADER_EVENT_POSITION];

  // read-your-writes: the read waits until the projections have the post
  const read = http.get(`${BASE_URL}/api/posts/${id}`, { headers: { [HEADER_MIN_POSITION]: position }, tags: { read: 'own post' } });
  check(read, { 'own post read (200)': (r) => r.status === 200, 'not behind': (r) => !r.headers[HEADER_READ_BEHIND] });
  projectionLag.add(Date.now() - answered);

  const voted = http.put(`${BASE_URL}/api/posts/${other.post}/vote`, JSON.stringify({ vote: __ITER % 2 === 0 ? 'up' : 'none' }), {
    ...json(writer.token),
    tags: { command: 'vote' },
  });
  check(voted, { 'vote set (200)': (r) => r.status === 200 });
  const commented = http.post(`${BASE_URL}/api/comments`, JSON.stringify({ postId: id, text: `k6 comment ${__VU}-${__ITER}: a few words of agreement.` }), {
    ...json(writer.token),
    tags: { command: 'comment' },
  });
  check(commented, { 'comment written (201)': (r) => r.status === 201 });
}
