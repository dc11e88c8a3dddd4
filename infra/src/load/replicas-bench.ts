/**
 * `npm run bench -- replicas`: the replicated layout (`npm run start:replicated`) on one embedded
 * PostgreSQL with durable settings, two of each service:
 *   commands/s   REPLICA_WRITERS (16) members creating posts against one command service, then spread over two
 *   reads/s      the home page (GET /api/posts?page=1) from REPLICA_READ_CONNECTIONS (64) connections against one
 *                query service, spread over two; then spread over two again, through the gateway (which balances
 *                over the two) and through haproxy in front of it (haproxyConfig; skipped, and said, when
 *                haproxy is not installed), with the CPU each part of the machine spent meanwhile
 * Each set of loads is measured twice, alternately, each after the projections have caught up; the mean is shown.
 *   replica      the home page from one query service reading the primary, one reading a streaming replica
 *                of it (READ_DATABASE_URL, docs/replica.md), and both
 *   fail-over    REPLICA_FAILOVERS (3) times: SIGKILL of the runner that owns the projections while a member
 *                writes; the time until every live projection has applied a command acknowledged after the kill
 * BENCH_SECONDS (default 10) sets the length of each load. The services are processes of their own, and
 * so is each read load's generator (autocannon); the gateway runs in this process, as in `npm run start:replicated`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { positionToken } from '@forum/contracts';
import { createLogger } from '@forum/platform';
import { waitFor } from '@forum/platform/testing';
import { freePort } from '@forum/platform/embedded-postgres';
import { everyAnswerHeaders } from '../embedded/security-headers.ts';
import { startReplica } from '../replica/replica.ts';
import { ReplicatedConfig } from '../replicated/config.ts';
import { haproxyConfig } from '../replicated/haproxy-config.ts';
import { ServiceProcess } from '../replicated/service-process.ts';
import { startReplicatedForum } from '../replicated/forum.ts';
import { haproxyInstalled, startHaproxy } from '../testing/haproxy.ts';
import { appliedByEveryProjection, CommandLoad, ownsProjections, workerStates } from '../testing/replicated.ts';
import { CpuSplit, type ProcessGroup } from './cpu-split.ts';
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

/** A load's rate, and the CPU each part of the machine spent meanwhile: CPU-seconds a second (cores), by part. */
interface Measured extends Rate {
  readonly cpu: ReadonlyMap<string, number>;
}

/** The parts of the machine the CPU is told by: every process under this one. */
const cpuGroup: ProcessGroup = ({ pid, comm, cmdline }) => {
  if (comm === 'postgres') return 'PostgreSQL';
  if (comm === 'haproxy') return 'haproxy';
  if (cmdline.includes('autocannon')) return 'load generator';
  if (cmdline.includes('query-service')) return 'query services';
  if (/command-service|projections/.test(cmdline)) return 'other services';
  return pid === process.pid ? 'gateway (this process)' : 'other';
};

/** The mean of each figure of `rates`. */
const mean = (rates: readonly Measured[]): Measured => {
  const cpu = new Map<string, number>();
  for (const rate of rates) for (const [part, cores] of rate.cpu) cpu.set(part, (cpu.get(part) ?? 0) + cores / rates.length);
  return {
    perSecond: rates.reduce((sum, rate) => sum + rate.perSecond, 0) / rates.length,
    p50: rates.reduce((sum, rate) => sum + rate.p50, 0) / rates.length,
    p99: rates.reduce((sum, rate) => sum + rate.p99, 0) / rates.length,
    failed: rates.reduce((sum, rate) => sum + rate.failed, 0),
    cpu,
  };
};

/** `load`, with the CPU spent meanwhile. */
async function withCpu(load: () => Promise<Rate>): Promise<Measured> {
  const split = new CpuSplit(process.pid, cpuGroup);
  await split.start();
  const started = performance.now();
  const rate = await load();
  const spent = await split.stop();
  const seconds = (performance.now() - started) / 1000;
  return { ...rate, cpu: new Map([...spent].map(([part, cpuSeconds]) => [part, cpuSeconds / seconds])) };
}

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
  const measure = async <Loads extends (() => Promise<Rate>)[]>(...loads: Loads): Promise<{ [K in keyof Loads]: Measured }> => {
    const runs: Measured[][] = loads.map(() => []);
    for (let round = 0; round < 2; round++) {
      for (const [i, run] of loads.entries()) {
        await settled();
        runs[i]!.push(await withCpu(run));
      }
    }
    return runs.map(mean) as { [K in keyof Loads]: Measured };
  };
  const [commandsOne, commandsTwo] = await measure(
    () => commandsAcross([command1!], tokens, SECONDS),
    () => commandsAcross([command1!, command2!], tokens, SECONDS),
  );
  const [readsOne, readsTwo] = await measure(
    () => readsAcross([query1!], { path: HOME, connections: READ_CONNECTIONS, seconds: SECONDS }),
    () => readsAcross([query1!, query2!], { path: HOME, connections: READ_CONNECTIONS, seconds: SECONDS }),
  );
  // through a proxy, each beside the two services read directly: the gateway, and haproxy in front of it when installed
  const reads = (bases: string[]) => () => readsAcross(bases, { path: HOME, connections: READ_CONNECTIONS, seconds: SECONDS });
  const haproxyPort = await freePort();
  const haproxy = haproxyInstalled()
    ? await startHaproxy(
        haproxyConfig({ bind: { host: '127.0.0.1', port: haproxyPort }, gateway, queryServices: [query1!, query2!], headers: await everyAnswerHeaders(false) }),
        haproxyPort,
      )
    : null;
  let proxied: Measured[] = [];
  try {
    proxied = await measure(reads([query1!, query2!]), reads([gateway]), ...(haproxy ? [reads([`http://127.0.0.1:${haproxyPort}`])] : []));
  } finally {
    await haproxy?.stop();
  }
  const [readsBeside, readsGateway, readsHaproxy] = proxied;

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

  /** Each part's CPU during `rate`'s load: cores (CPU-seconds a second) and microseconds of CPU an answer. */
  const cores = (rate: Measured) =>
    `      CPU: ${[...rate.cpu]
      .filter(([, used]) => used >= 0.005)
      .sort(([, a], [, b]) => b - a)
      .map(([part, used]) => `${part} ${used.toFixed(2)} (${((used / rate.perSecond) * 1e6).toFixed(0)} µs a read)`)
      .join(', ')}`;
  /** Answers per CPU-second of every process under this one: the rate on a machine whose cores are all busy. */
  const perCpu = (rate: Measured) => rate.perSecond / [...rate.cpu.values()].reduce((sum, used) => sum + used, 0);
  const proxyRow = (label: string, rate: Measured) =>
    row(
      label,
      rate,
      `(${READ_CONNECTIONS} connections, ${ratio(rate, readsBeside!)} of direct; ×${(perCpu(rate) / perCpu(readsBeside!)).toFixed(2)} per CPU-second spent)`,
    );
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
      row('home reads/s, 2 query services', readsBeside!, `(${READ_CONNECTIONS} connections, beside the proxies)`),
      cores(readsBeside!),
      proxyRow('home reads/s, gateway over 2', readsGateway!),
      cores(readsGateway!),
      ...(readsHaproxy
        ? [proxyRow('home reads/s, haproxy over 2', readsHaproxy), cores(readsHaproxy)]
        : ['  home reads/s, haproxy over 2       skipped: haproxy is not installed (apt-get install haproxy)']),
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
