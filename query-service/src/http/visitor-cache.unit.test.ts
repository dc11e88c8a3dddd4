import { fastify, type InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { CheckpointWatcher } from '../store/checkpoint-watcher.ts';
import { createVisitorCache } from './visitor-cache.ts';

/** A server of one public read, `/text/:n` answering n characters, its reads counted, under a cache of these limits. */
async function serverWith(limits: { maxEntries: number; maxBodyLength?: number; maxLength?: number }) {
  const watcher = { version: () => 'v1' } as unknown as CheckpointWatcher;
  const cache = createVisitorCache(watcher, limits);
  const app = fastify();
  app.addHook('onRequest', cache.visitors);
  app.addHook('onSend', cache.keep);
  let reads = 0;
  app.get<{ Params: { n: string } }>('/text/:n', { config: { publicRead: true } }, (request, reply) => {
    reads += 1;
    return reply.type('text/plain').send('x'.repeat(Number(request.params.n)));
  });
  await app.ready();
  return { get: (request: string | InjectOptions) => app.inject(request), reads: () => reads };
}

describe('the visitors’ memory with limits on length', () => {
  it('keeps no body longer than maxBodyLength, and still answers its ETag with 304', async () => {
    const server = await serverWith({ maxEntries: 10, maxBodyLength: 10 });
    const long = await server.get('/text/11');
    expect((await server.get('/text/11')).body).toHaveLength(11);
    expect(server.reads()).toBe(2);
    expect((await server.get({ url: '/text/11', headers: { 'if-none-match': long.headers.etag as string } })).statusCode).toBe(304);
    await server.get('/text/10');
    expect((await server.get('/text/10')).body).toHaveLength(10);
    expect(server.reads()).toBe(3);
  });

  it('keeps at most maxLength characters in all, the oldest leaving first', async () => {
    const server = await serverWith({ maxEntries: 10, maxLength: 15 });
    await server.get('/text/8');
    await server.get('/text/8');
    expect(server.reads()).toBe(1);
    // another query string, another answer kept: 16 characters would be too many, so the first leaves
    await server.get('/text/8?again');
    await server.get('/text/8?again');
    expect(server.reads()).toBe(2);
    await server.get('/text/8');
    expect(server.reads()).toBe(3);
  });
});
