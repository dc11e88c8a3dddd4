/**
 * What the browser security headers cost one answer: `npx tsx infra/src/load/security-headers-cost.ts [rounds] [per round]`.
 *
 * One Fastify server with one small JSON route, answered through `inject` (no socket), in rounds
 * that alternate between the ways of setting the strict headers (docs/security/headers.md): none,
 * the gateway's (the headers @fastify/helmet writes, worked out once, set in one loop), and
 * @fastify/helmet registered as it comes (helmet's middleware made and run on every answer). Prints
 * each way's median time per answer and its cost over none. Figures to read, on a machine others share.
 */
import { performance } from 'node:perf_hooks';
import fastifyHelmet from '@fastify/helmet';
import { fastify, type FastifyInstance } from 'fastify';
import { createSecurityHeaders, STRICT_HELMET } from '../embedded/security-headers.ts';

const rounds = Number(process.argv[2] ?? 5);
const perRound = Number(process.argv[3] ?? 5_000);

async function server(way: 'none' | 'gateway' | '@fastify/helmet'): Promise<FastifyInstance> {
  const app = fastify({ logger: false });
  if (way === 'gateway') {
    const headers = await createSecurityHeaders({ https: true, corsOrigins: [] });
    app.addHook('onRequest', (request, reply, done) => {
      headers.every(request.raw, reply.raw);
      done();
    });
  }
  if (way === '@fastify/helmet') await app.register(fastifyHelmet, STRICT_HELMET(true));
  app.get('/api/tags', () => ({ tags: ['a', 'b'] }));
  await app.ready();
  return app;
}

const ways = ['none', 'gateway', '@fastify/helmet'] as const;
const apps = await Promise.all(ways.map((way) => server(way)));
const times = new Map<string, number[]>(ways.map((way) => [way, []]));
for (let round = 0; round <= rounds; round++) {
  for (const [at, way] of ways.entries()) {
    const started = performance.now();
    for (let i = 0; i < perRound; i++) await apps[at]!.inject({ method: 'GET', url: '/api/tags' });
    // the first round warms up
    if (round > 0) times.get(way)!.push(((performance.now() - started) * 1000) / perRound);
  }
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const none = median(times.get('none')!);
for (const way of ways) {
  const us = median(times.get(way)!);
  console.log(`${way.padEnd(16)} ${us.toFixed(1).padStart(6)} µs per answer${way === 'none' ? '' : `, +${(us - none).toFixed(1)} µs`}`);
}
await Promise.all(apps.map((app) => app.close()));
