import { randomBytes, randomUUID } from 'node:crypto';
import { compareLogPositions, HEADER_IDEMPOTENCY_KEY, parsePositionToken, type Vote } from '@forum/contracts';
import { createLogger, type Knex } from '@forum/platform';
import { createTestDatabase } from '@forum/platform/testing';
import { projectionStatus } from '@forum/projections';
import { ReplicatedConfig } from '../replicated/config.ts';
import { startReplicatedForum, type ReplicaCounts, type ReplicatedForum } from '../replicated/forum.ts';

export interface TestReplicatedForum {
  readonly forum: ReplicatedForum;
  /** The gateway, as this machine reaches it. */
  readonly base: string;
  /**
   * A new account of the embedded realm, signed in and registered with the forum (as the apps register after sign-in);
   * `email` in place of a made-up address, `emailVerified` when the realm should vouch for it.
   */
  newUser(name: string, account?: { email?: string; emailVerified?: boolean }): Promise<{ id: string; email: string; token: string }>;
  /** Whether every live projection has applied the event at `position` (a command's answer). */
  applied(position: string): Promise<boolean>;
  stop(): Promise<void>;
}

/**
 * The replicated layout (REPLICAS of each service, or `replicas`) on a free port, against a fresh
 * database of the run's PostgreSQL; `settings`: more of its variables (e.g. ADMIN_EMAILS).
 */
export async function startTestReplicatedForum(replicas: ReplicaCounts = {}, settings: Record<string, string> = {}): Promise<TestReplicatedForum> {
  const database = await createTestDatabase('replicated');
  const env = {
    DATABASE_URL: database.url,
    LOG_LEVEL: process.env.TEST_LOG ?? 'warn',
    LOG_FORMAT: 'json',
    // tests write faster than people
    WRITE_LIMITS: 'off',
    // a read after a write waits as long as a busy machine needs (see startTestForum)
    MIN_POSITION_WAIT_MS: '15000',
    DEMO_DATA: 'false',
    ...settings,
  };
  const config = ReplicatedConfig.parse({ ...env, PORT: '0', HOST: '127.0.0.1' });
  const forum = await startReplicatedForum(config, {
    env: { ...process.env, ...env },
    replicas,
    output: 'capture',
    logger: createLogger('test-replicated', 'silent'),
  }).catch(async (error: unknown) => {
    await database.drop();
    throw error;
  });
  const base = `http://127.0.0.1:${forum.port}`;
  return {
    forum,
    base,
    async newUser(name, account = {}) {
      const email = account.email ?? `${name.toLowerCase()}-${randomBytes(4).toString('hex')}@forum.test`;
      const password = 'Secret#2026';
      const { id } = await forum.realm!.accounts.create({ email, password, name, emailVerified: account.emailVerified });
      const answer = await fetch(`${base}/realms/forum/protocol/openid-connect/token`, {
        method: 'POST',
        body: new URLSearchParams({ grant_type: 'password', client_id: 'forum-cli', username: email, password, scope: 'openid' }),
      });
      const { access_token: token } = (await answer.json()) as { access_token: string };
      // registered with the forum, as the apps register a member after sign-in
      const registered = await fetch(`${base}/api/me/registration`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
      if (!registered.ok) throw new Error(`POST /api/me/registration answered ${registered.status}: ${await registered.text()}`);
      return { id, email, token };
    },
    applied: (position) => appliedByEveryProjection(forum.db, position),
    async stop() {
      await forum.stop();
      await database.drop();
    },
  };
}

/** Whether every live projection has applied the event at `position` (a command's answer). */
export async function appliedByEveryProjection(db: Knex, position: string): Promise<boolean> {
  const wanted = parsePositionToken(position)!;
  const builds = (await projectionStatus(db)).filter((build) => build.role === 'live');
  return builds.every((build) => compareLogPositions(parsePositionToken(build.checkpoint)!, wanted) >= 0);
}

/** What a runner's /readyz says of its workers: their states, e.g. ['running', …] or ['standby', …] (none while it does not answer). */
export async function workerStates(runner: { url: string }): Promise<string[]> {
  const answer = await fetch(`${runner.url}/readyz`, { signal: AbortSignal.timeout(2000) }).catch(() => null);
  if (!answer) return [];
  const body = (await answer.json()) as { checks?: { projections?: { detail?: { workers?: { state: string }[] } } } };
  return body.checks?.projections?.detail?.workers?.map((worker) => worker.state) ?? [];
}

/** The runner whose workers all run: the one that owns the projections. */
export const ownsProjections = (states: readonly string[]) => states.length > 0 && states.every((state) => state === 'running');

/** A command the load sent, and what finally answered it. */
export interface SentCommand {
  readonly kind: 'post' | 'comment' | 'vote';
  readonly key: string;
  readonly user: string;
  /** The post it is about (a vote's, a comment's), or the post it created. */
  readonly postId?: string;
  readonly vote?: Vote;
  readonly status: number;
  readonly body: { id?: string; position?: string; error?: { code: string } };
  /** How many times it was sent (a retry after a cut-off answer or an unreachable service). */
  readonly attempts: number;
  readonly answeredAt: number;
}

/** Answers a client sends again with the same Idempotency-Key: the service was unreachable, or its answer was cut off. */
const RETRIED = new Set([502, 503, 504]);
/** How long a client keeps sending one command again before the load fails. */
const GIVE_UP_AFTER_MS = 60_000;

export interface CommandLoadOptions {
  /** A member's pause after each answer (default 0: as fast as the answers come). */
  readonly pauseMs?: number;
  /** Every how many of a member's commands is a comment, the others votes (default 2). */
  readonly commentEvery?: number;
  /** Hears every answer, first attempts and those sent again alike (0: no answer, the connection failed). */
  readonly onAnswer?: (answer: { kind: SentCommand['kind']; status: number; at: number }) => void;
}

/**
 * Members writing through the gateway: each creates posts, then comments on and votes for the
 * others' posts. Every command carries an Idempotency-Key and is sent again with it, after a pause,
 * when the answer was cut off or no service took it. A member's `token` is read at each send: the
 * caller may renew it.
 */
export class CommandLoad {
  readonly sent: SentCommand[] = [];
  private running = false;
  private loops: Promise<void>[] = [];
  private readonly posts: string[] = [];
  /** Each post's author. */
  private readonly authors = new Map<string, string>();

  constructor(
    private readonly base: string,
    private readonly users: readonly { id: string; token: string }[],
    private readonly options: CommandLoadOptions = {},
  ) {}

  /** Acknowledged (2xx) commands so far. */
  get acknowledged(): SentCommand[] {
    return this.sent.filter((command) => command.status >= 200 && command.status < 300);
  }

  /** Each member creates `postsEach` posts, then the loops start. */
  async start(postsEach = 2): Promise<void> {
    for (const user of this.users) {
      for (let i = 0; i < postsEach; i++) {
        const created = await this.send(user, 'post', '/api/posts', 'POST', {
          title: `Post ${i + 1} under load`,
          description: 'Written while services come and go',
          tags: [],
        });
        if (created.body.id) {
          this.posts.push(created.body.id);
          this.authors.set(created.body.id, user.id);
        }
      }
    }
    this.running = true;
    this.loops = this.users.map((user) => this.loop(user));
  }

  /** Ends the loops once their commands in flight are answered. */
  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }

  private async loop(user: { id: string; token: string }) {
    const { pauseMs = 0, commentEvery = 2 } = this.options;
    let turn = 0;
    while (this.running) {
      if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
      // a member votes on the others' posts only, and comments on any
      const others = this.posts.filter((id) => this.authors.get(id) !== user.id);
      const comment = turn++ % commentEvery === 0 || others.length === 0;
      const from = comment ? this.posts : others;
      const postId = from[Math.floor(Math.random() * from.length)]!;
      if (comment) {
        await this.send(user, 'comment', '/api/comments', 'POST', { postId, text: `Comment ${turn} of ${user.id.slice(0, 8)}` }, postId);
      } else {
        const vote = (['up', 'down', 'none'] as const)[turn % 3]!;
        await this.send(user, 'vote', `/api/posts/${postId}/vote`, 'PUT', { vote }, postId, vote);
      }
    }
  }

  private async send(
    user: { id: string; token: string },
    kind: SentCommand['kind'],
    path: string,
    method: string,
    body: unknown,
    postId?: string,
    vote?: Vote,
  ): Promise<SentCommand> {
    const key = randomUUID();
    const giveUp = Date.now() + GIVE_UP_AFTER_MS;
    for (let attempts = 1; ; attempts++) {
      const answer = await fetch(`${this.base}${path}`, {
        method,
        headers: { Authorization: `Bearer ${user.token}`, 'Content-Type': 'application/json', [HEADER_IDEMPOTENCY_KEY]: key },
        body: JSON.stringify(body),
      }).catch(() => null);
      this.options.onAnswer?.({ kind, status: answer?.status ?? 0, at: Date.now() });
      if ((answer === null || RETRIED.has(answer.status)) && Date.now() < giveUp) {
        await answer?.body?.cancel();
        await new Promise((resolve) => setTimeout(resolve, 100));
        continue;
      }
      const parsed = answer ? ((await answer.json().catch(() => ({}))) as SentCommand['body']) : {};
      const sent: SentCommand = {
        kind,
        key,
        user: user.id,
        postId: kind === 'post' ? parsed.id : postId,
        vote,
        status: answer?.status ?? 0,
        body: parsed,
        attempts,
        answeredAt: Date.now(),
      };
      this.sent.push(sent);
      return sent;
    }
  }
}
