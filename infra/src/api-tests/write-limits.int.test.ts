import { WRITE_LIMITS, type ErrorBody } from '@forum/contracts';
import { matching } from '@forum/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../testing/forum.ts';

/**
 * The write limits over the whole stack with their counts in PostgreSQL (the limiter's table),
 * small through WRITE_LIMITS so that a flood is a few requests: both windows of a kind are counted,
 * and the short one is given back when the long one refuses. What the routes answer at the limits,
 * and what counts, are the route tests' (command-service/src/http/write-limits.route.test.ts);
 * two processes on one database, write-limits-processes.int.test.ts.
 */
const LIMITS = { report: { burst: { points: 10 }, sustained: { points: 3 } } };

let forum: TestForum;

beforeAll(async () => {
  forum = await startTestForum({ WRITE_LIMITS: JSON.stringify(LIMITS) });
});
afterAll(() => forum?.stop());

async function idOf(response: Response | Promise<Response>): Promise<string> {
  const r = await response;
  const body = (await r.json()) as { id: string };
  expect(r.status, JSON.stringify(body)).toBeLessThan(300);
  return body.id;
}

describe('a flood stops at its limit, answers 429 with Retry-After, and the log holds only the accepted writes', () => {
  it('reports: 5 at once, 3 accepted in the long window, and Retry-After says when that window ends', async () => {
    const author = await forum.newUser('Author');
    const postId = await idOf(
      forum.api('/api/posts', { method: 'POST', token: author.token, json: { title: 'Something to talk about', description: 'Text', tags: [] } }),
    );
    const commenters = await Promise.all([forum.newUser('Commenter A'), forum.newUser('Commenter B')]);
    const commentIds: string[] = [];
    for (let i = 0; i < 5; i++)
      commentIds.push(await idOf(forum.api('/api/comments', { method: 'POST', token: commenters[i % 2]!.token, json: { postId, text: `Reportable ${i}` } })));
    const reporter = await forum.newUser('Reporter');
    const answers = await Promise.all(
      commentIds.map((id) => forum.api(`/api/comments/${id}/report`, { method: 'POST', token: reporter.token, json: { feedback: 'spam' } })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 201, 201, 429, 429]);
    for (const refused of answers.filter((a) => a.status === 429)) {
      const seconds = Number(refused.headers.get('Retry-After'));
      expect(seconds).toBeGreaterThan(WRITE_LIMITS.report.burst.seconds);
      expect(seconds).toBeLessThanOrEqual(WRITE_LIMITS.report.sustained.seconds);
      expect(((await refused.json()) as ErrorBody).error).toMatchObject({
        code: 'RATE_LIMITED',
        message: matching(/^Too many reports\. Try again in \d+ minutes?\.$/),
        details: { retryAfterSeconds: seconds },
      });
    }
    expect(await forum.eventCount({ type: 'CommentReported', actorId: reporter.id })).toBe(3);
  });
});
