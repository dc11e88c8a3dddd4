import { runForumctl } from '../ops/forumctl.ts';
import { waitFor } from '@forum/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommandLoad, ownsProjections as owns, startTestReplicatedForum, workerStates, type TestReplicatedForum } from '../testing/replicated.ts';

/**
 * The runner's fail-over, from the SIGKILL of the runner that owns the projections to the moment
 * every live projection has applied a command acknowledged after the standby took over: PostgreSQL ends the dead
 * runner's session (its socket closes with the process), which frees the builds' advisory locks;
 * the standby tries them every 2 s (standbyRetryMs), prepares and catches up. This test proves the
 * take-over and prints its time; how fast it is belongs to `npm run bench -- replicas` (about 1-3 s
 * on 2 cores, docs/replicated.md), since a machine busy with the rest of the suite stretches it.
 */
const TAKEOVER_WAIT_MS = 90_000;

let test: TestReplicatedForum;

beforeAll(async () => {
  test = await startTestReplicatedForum({ command: 1, query: 1, projections: 2 });
}, 180_000);
afterAll(async () => {
  await test?.stop();
}, 60_000);

describe('the projection runners: one owns the projections, the other stands by', () => {
  it(
    'when the owner is killed (SIGKILL) while commands stream in, the standby takes over, and the read models equal a replay with nothing applied twice or missed',
    { timeout: 300_000 },
    async () => {
      const runners = test.forum.services.projections;
      const [first, second] = [await workerStates(runners[0]!), await workerStates(runners[1]!)];
      expect(owns(first)).toBe(true);
      expect(second.every((state) => state === 'standby')).toBe(true);

      const users = await Promise.all(['Ada', 'Ben', 'Cy'].map((name) => test.newUser(name)));
      const load = new CommandLoad(test.base, users);
      await load.start();
      await waitFor(
        () => load.acknowledged.length,
        (n) => n >= 30,
        60_000,
      );

      const killedAt = Date.now();
      runners[0]!.kill('SIGKILL');
      // the standby takes the projections over (a command answered just after the kill may have
      // been applied already by a statement the killed runner had sent: PostgreSQL finishes it)
      await waitFor(() => workerStates(runners[1]!), owns, TAKEOVER_WAIT_MS, 50);
      const tookOverAt = Date.now();
      // a command acknowledged after the take-over, and the moment every live projection has applied it
      const after = await waitFor(
        () => load.acknowledged.find((command) => command.answeredAt > tookOverAt && command.body.position),
        Boolean,
        TAKEOVER_WAIT_MS,
      );
      await waitFor(() => test.applied(after!.body.position!), Boolean, TAKEOVER_WAIT_MS, 20);
      console.info(
        `runner fail-over: ${tookOverAt - killedAt} ms from SIGKILL to the standby's take-over, ${Date.now() - killedAt} ms to a later command applied by every live projection`,
      );

      // the load goes on past the take-over; the killed runner is started again, and stands by
      const acknowledged = load.acknowledged.length;
      await waitFor(
        () => load.acknowledged.length,
        (n) => n >= acknowledged + 30,
        60_000,
      );
      await load.stop();
      await waitFor(
        () => workerStates(runners[0]!),
        (states) => states.length > 0 && states.every((state) => state === 'standby'),
        60_000,
        200,
      );

      // every command was answered 2xx in the end (some after retries through the gateway)
      expect(load.sent.filter((command) => command.status < 200 || command.status >= 300)).toEqual([]);
      const last = load.acknowledged.filter((command) => command.body.position).at(-1)!;
      await waitFor(() => test.applied(last.body.position!), Boolean, 60_000);

      // nothing applied twice, nothing missed: the read models' counts equal the log's events …
      const count = async (sql: string) => Number((await test.forum.db.raw<{ rows: { n: string }[] }>(sql)).rows[0]!.n);
      const commentsInLog = await count(`SELECT count(*) AS n FROM eventstore.events WHERE type = 'CommentAdded'`);
      const postsInLog = await count(`SELECT count(*) AS n FROM eventstore.events WHERE type = 'PostCreated'`);
      expect(commentsInLog).toBe(load.acknowledged.filter((command) => command.kind === 'comment').length);
      expect(await count(`SELECT count(*) AS n FROM read.comments`)).toBe(commentsInLog);
      expect(await count(`SELECT coalesce(sum(comment_count), 0) AS n FROM read.posts`)).toBe(commentsInLog);
      expect(await count(`SELECT count(*) AS n FROM read.posts`)).toBe(postsInLog);
      // … each member's last vote on a post is what the post counts
      const lastVotes = new Map(
        load.acknowledged.filter((command) => command.kind === 'vote').map((command) => [`${command.user}:${command.postId}`, command.vote]),
      );
      const votes = [...lastVotes.values()];
      expect(await count(`SELECT coalesce(sum(up_vote), 0) AS n FROM read.posts`)).toBe(votes.filter((vote) => vote === 'up').length);
      expect(await count(`SELECT coalesce(sum(down_vote), 0) AS n FROM read.posts`)).toBe(votes.filter((vote) => vote === 'down').length);

      // … and every read model equals a replay of the log
      const output: string[] = [];
      const code = await runForumctl(['verify'], test.forum.databaseUrl, { out: (text) => output.push(text), err: (text) => output.push(text) });
      expect(code, output.join('\n')).toBe(0);
    },
  );
});
