/**
 * `npm run bench -- replicas`: the replicated layout (`npm run start:replicated`) on one embedded
 * PostgreSQL with durable settings, two of each service:
 *   commands/s   REPLICA_WRITERS (16) members creating posts against one command service, then spread over two
 *   reads/s      the home page (GET /api/posts?page=1) from REPLICA_READ_CONNECTIONS (64) connections against one
 *                query service, spread over two, and through the gateway (which balances over the two)
 * One and two are measured twice each, alternately, each after the projections have caught up; the mean is shown.
 *   replica      the home page from one query service reading the primary, one reading a streaming replica
 *                of it (READ_DATABASE_URL, docs/replica.md), and both
 *   fail-over    REPLICA_FAILOVERS (3) times: SIGKILL of the runner that owns the projections while a member
 *                writes; the time until every live projection has applied a command acknowledged after the kill
 * BENCH_SECONDS (default 10) sets the length of each load. The services are processes of their own; the
 * gateway runs in this process, beside the load generator (its row is the gateway's cost on top).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { positionToken } from '@forum/contracts';
import { createLogger } from '@forum/platform';
import { waitFor } from '@forum/platform/testing';
import { freePort } from '@forum/platform/embedded-postgres';
import { startReplica } from '../replica/replica.ts';
import { ReplicatedConfig } from '../replicated/config.ts';
import { ServiceProcess } from '../replicated/service-process.ts';
import { startReplicatedForum } from '../replicated/forum.ts';
import { appliedByEveryProjection, CommandLoad, ownsProjections, workerStates } from '../testing/replicated.ts';
import { commandsAcross, readsAcross, type Rate } from './replica-load.ts';
import { benchWriters, signIn } from './server.ts';
import { ms, percentile } from './stats.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WRITERS = Number(process.env.REPLICA_WRITERS ?? 16);
const READ_CONNECTIONS = Number(process.env.REPLICA_READ_CONNECTIONS ?? 64);
const FAILOVERS = Number(process.env.REPLICA_FAILOVERS ?? 3);
/** The runner's fail-over bound (docs/replicated.md): the bench fails when a take-over is slower. */
const FAILOVER_BOUND_MS = 10_000;
const HOME = '/api/posts?page=1&sort=newest';

/** The mean of each figure of `rates`. */
const mean = (rates: readonly Rate[]): Rate => ({
  perSecond: rates.reduce((sum, rate) => sum + rate.perSecond, 0) / rates.length,
  p50: rates.reduce((sum, rate) => sum + rate.p50, 0) / rates.length,
  p99: rates.reduce((sum, rate) => sum + rate.p99, 0) / rates.length,
  failed: rates.reduce((sum, rate) => sum + rate.failed, 0),
});

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'forum-replicas-bench-'));
const env = { DATA_DIR: dataDir, LOG_LEVEL: 'error', LOG_FORMAT: 'json', WRITE_LIMITS: 'off', PAYMENT_DEMO_DELAY_MS: '0' };
const config = ReplicatedConfig.parse({ ...env, PORT: '0', HOST: '127.0.0.1', REPLICAS: '2' });
// the embedded PostgreSQL and realm, whatever this shell has set
const forum = await startReplicatedForum(config, {
  env: { ...process.env, ...env, OIDC_ISSUER: '', DATABASE_URL: '' },
  output: 'capture',
  logger: createLogger('replicas-bench', 'error'),
}).catch(async (error: unknown) => {
  await rm(dataDir, { recursive: true, force: true });
  throw error;
});
try {
  const gateway = `http://127.0.0.1:${forum.port}`;
  const tokens = await (
    await benchWriters({ base: gateway, token: (email, password) => signIn(gateway, email, password) }, WRITERS, 'replica-writer')
  ).tokens();
  const [command1, command2] = forum.services['command-service'].map((service) => service.url);
  const [query1, query2] = forum.services['query-service'].map((service) => service.url);

  // each load starts once the projections have applied the last one's writes (they would compete
  // for the CPU), and each pair runs twice, one then two then one then two: the mean of both
  const settled = async () => {
    const head = positionToken(await forum.store.head());
    await waitFor(() => appliedByEveryProjection(forum.db, head), Boolean, 600_000, 200);
  };
  const measure = async (one: () => Promise<Rate>, two: () => Promise<Rate>): Promise<[Rate, Rate]> => {
    const runs: Rate[][] = [[], []];
    for (let round = 0; round < 2; round++) {
      for (const [i, run] of [one, two].entries()) {
        await settled();
        runs[i]!.push(await run());
      }
    }
    return [mean(runs[0]!), mean(runs[1]!)];
  };
  const [commandsOne, commandsTwo] = await measure(
    () => commandsAcross([command1!], tokens, SECONDS),
    () => commandsAcross([command1!, command2!], tokens, SECONDS),
  );
  const [readsOne, readsTwo] = await measure(
    () => readsAcross([query1!], { path: HOME, connections: READ_CONNECTIONS, seconds: SECONDS }),
    () => readsAcross([query1!, query2!], { path: HOME, connections: READ_CONNECTIONS, seconds: SECONDS }),
  );
  const readsGateway = await readsAcross([gateway], { path: HOME, connections: READ_CONNECTIONS, seconds: SECONDS });

  // ── the runner's fail-over, while one member writes through the gateway ──
  const failovers: number[] = [];
  const writer = new CommandLoad(gateway, [{ id: 'replica-writer-0', token: tokens[0]! }]);
  await writer.start(1);
  for (let round = 0; round < FAILOVERS; round++) {
    const runners = forum.services.projections;
    const states = await Promise.all(runners.map((runner) => workerStates(runner)));
    const owner = runners[states.findIndex(ownsProjections)]!;
    const killedAt = Date.now();
    owner.kill('SIGKILL');
    const after = await waitFor(() => writer.acknowledged.find((command) => command.answeredAt > killedAt && command.body.position), Boolean, 60_000);
    await waitFor(() => appliedByEveryProjection(forum.db, after!.body.position!), Boolean, 60_000, 20);
    failovers.push(Date.now() - killedAt);
    // the killed runner is back, standing by, before the next round
    await waitFor(
      () => workerStates(owner),
      (workers) => workers.length > 0 && workers.every((state) => state === 'standby'),
      120_000,
      200,
    );
  }
  await writer.stop();

  // ── reads from a streaming replica: one query service on the primary, one on the replica ──
  const replica = await startReplica({ primaryUrl: forum.databaseUrl, dataDir: path.join(dataDir, 'replica') });
  const onReplica = new ServiceProcess({
    service: 'query-service',
    name: 'query-service-on-replica',
    port: await freePort(),
    env: {
      ...process.env,
      ...env,
      DATABASE_URL: forum.databaseUrl,
      READ_DATABASE_URL: replica.url,
      OIDC_ISSUER: forum.issuer,
      OIDC_JWKS_URL: `${gateway}/realms/forum/protocol/openid-connect/certs`,
    },
    logger: forum.logger,
    output: 'capture',
  });
  let primaryReads: Rate, replicaReads: Rate, bothReads: Rate;
  try {
    await onReplica.start();
    [primaryReads, replicaReads] = await measure(
      () => readsAcross([query1!], { path: HOME, connections: READ_CONNECTIONS, seconds: SECONDS }),
      () => readsAcross([onReplica.url], { path: HOME, connections: READ_CONNECTIONS, seconds: SECONDS }),
    );
    await settled();
    bothReads = await readsAcross([query1!, onReplica.url], { path: HOME, connections: READ_CONNECTIONS, seconds: SECONDS });
  } finally {
    await onReplica.stop();
    await replica.stop();
  }

  const row = (label: string, rate: Rate, note: string) =>
    `  ${label.padEnd(34)} ${rate.perSecond.toFixed(0).padStart(7)}   p50 ${ms(rate.p50).padStart(9)}  p99 ${ms(rate.p99).padStart(9)}  ${rate.failed} failed  ${note}`;
  const ratio = (two: Rate, one: Rate) => `×${(two.perSecond / one.perSecond).toFixed(2)}`;
  process.stdout.write(
    [
      '',
      `forum bench: replicas (${os.cpus().length} cores, Node ${process.version}, one PostgreSQL with fsync on, ${SECONDS} s a load, mean of two)`,
      row('commands/s, 1 command service', commandsOne, `(${WRITERS} writers)`),
      row('commands/s, 2 command services', commandsTwo, `(${WRITERS} writers, ${ratio(commandsTwo, commandsOne)})`),
      row('home reads/s, 1 query service', readsOne, `(${READ_CONNECTIONS} connections)`),
      row('home reads/s, 2 query services', readsTwo, `(${READ_CONNECTIONS} connections, ${ratio(readsTwo, readsOne)})`),
      row('home reads/s, gateway over 2', readsGateway, `(${READ_CONNECTIONS} connections, ${ratio(readsGateway, readsTwo)} of direct)`),
      row('home reads/s, 1 on the primary', primaryReads, `(${READ_CONNECTIONS} connections)`),
      row('home reads/s, 1 on a replica', replicaReads, `(${READ_CONNECTIONS} connections, ${ratio(replicaReads, primaryReads)} of the primary's)`),
      row(
        'home reads/s, primary + replica',
        bothReads,
        `(${READ_CONNECTIONS} connections, ${ratio(bothReads, primaryReads)}; one machine: both share its cores)`,
      ),
      `  runner fail-over                   ${failovers.map((value) => ms(value)).join(', ')} (max ${ms(Math.max(...failovers))}, median ${ms(percentile(failovers, 50))}; SIGKILL to a later command applied by every projection; bound ${ms(FAILOVER_BOUND_MS)})`,
      '',
    ].join('\n') + '\n',
  );
  if (Math.max(...failovers) > FAILOVER_BOUND_MS) {
    process.stderr.write(`runner fail-over over its bound: ${ms(Math.max(...failovers))} > ${ms(FAILOVER_BOUND_MS)}\n`);
    process.exitCode = 1;
  }
} finally {
  await forum.stop();
  await rm(dataDir, { recursive: true, force: true });
}
