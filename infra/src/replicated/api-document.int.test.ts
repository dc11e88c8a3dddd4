import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../testing/forum.ts';
import { scrape } from '../testing/prometheus.ts';
import { startTestReplicatedForum, type TestReplicatedForum } from '../testing/replicated.ts';

/**
 * The API document in the replicated layout: its gateway has no route of the API, so it merges the
 * services' parts (each one's GET /api/openapi.json); the merge is the document npm start's gateway
 * gives from the routes it has (infra/src/api-tests/openapi.int.test.ts holds that one to the routes).
 * The same start (one of each service, with METRICS_PORT=0) shows each process's metrics on a port
 * of its own: a replicated start is too slow to make twice.
 */
let replicated: TestReplicatedForum;
let embedded: TestForum;

beforeAll(async () => {
  [replicated, embedded] = await Promise.all([startTestReplicatedForum({ command: 1, query: 1, projections: 1 }, { METRICS_PORT: '0' }), startTestForum()]);
}, 180_000);
afterAll(async () => {
  await Promise.all([replicated?.stop(), embedded?.stop()]);
}, 60_000);

const documentAt = async (url: string) => {
  const answer = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  expect(answer.status).toBe(200);
  return answer.json();
};

describe('the API document of the replicated layout', () => {
  it("is the services' parts merged: the document of the whole API, at /api/openapi.json and for /api/docs", async () => {
    const whole = await documentAt(`${embedded.url}/api/openapi.json`);
    expect(await documentAt(`${replicated.base}/api/openapi.json`)).toEqual(whole);
    expect(await documentAt(`${replicated.base}/api/docs/json`)).toEqual(whole);
  });
});

describe("the replicated layout's metrics", () => {
  it('are served by the gateway and by each service on a port of its own, each series naming its process', async () => {
    const { forum } = replicated;
    const processes = [
      { service: 'gateway', url: forum.metricsUrl },
      ...Object.values(forum.services)
        .flat()
        .map((replica) => ({ service: replica.name.replace(/-\d+$/, ''), url: replica.metricsUrl })),
    ];
    expect(new Set(processes.map((process) => process.url)).size).toBe(4);
    for (const { service, url } of processes) {
      const scraped = await scrape(url!);
      expect(scraped.sum('forum_ready'), service).toBe(1);
      expect(
        scraped.samples.every((sample) => sample.labels.service === service),
        service,
      ).toBe(true);
    }
    expect((await fetch(`${replicated.base}/metrics`)).status).toBe(404);
  });
});
