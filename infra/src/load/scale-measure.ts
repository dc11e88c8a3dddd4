/**
 * How the scale bench measures (scale-bench.ts says what): autocannon runs against the forum and
 * the bare server, interleaved rounds and their medians, and the Markdown table of the rows.
 */
import autocannon from 'autocannon';
import { percentile } from './stats.ts';

export interface Figures {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly errors: number;
  readonly bytes: number;
}

export interface MeasureSettings {
  readonly connections: number;
  readonly rounds: number;
  readonly seconds: number;
  readonly writers: number;
  readonly say: (line: string) => void;
}

/** One request of a run: its path (with the query) and headers. */
export interface Ask {
  readonly path: string;
  readonly headers: Record<string, string>;
}

export interface Command {
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
  readonly token?: string;
  /** Sent as the Idempotency-Key header, as forum-web sends one with every command. */
  readonly idempotencyKey?: string;
}

const median = (values: readonly number[]) => percentile(values, 50);
const medianOf = (runs: readonly Figures[]): Figures => ({
  rps: median(runs.map((r) => r.rps)),
  p50: median(runs.map((r) => r.p50)),
  p99: median(runs.map((r) => r.p99)),
  errors: runs.reduce((sum, r) => sum + r.errors, 0),
  bytes: median(runs.map((r) => r.bytes)),
});

export const msText = (value: number) => (Number.isFinite(value) ? (value >= 100 ? `${Math.round(value)}` : value.toFixed(1)) : '—');

export function measuring({ connections: defaultConnections, rounds, seconds, writers, say }: MeasureSettings) {
  /** GETs of `url` from `connections` connections; with `ask`, the run's i-th request is `ask(i)` (several members in turn). */
  async function cannon(url: string, headers: Record<string, string>, connections = defaultConnections, ask?: (i: number) => Ask): Promise<Figures> {
    let sent = 0;
    const result = await autocannon({
      url,
      headers,
      connections,
      duration: seconds,
      ...(ask && { requests: [{ setupRequest: (request) => ({ ...request, ...ask(sent++) }) }] }),
    });
    return {
      rps: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: result.non2xx + result.errors + result.timeouts,
      bytes: result.throughput.total / Math.max(1, result.requests.total),
    };
  }

  /**
   * Commands from `writers` connections for the run's seconds (autocannon, as for the reads: the
   * load generator shares the machine's two cores, and a fetch loop's own work per request was as
   * much as a bare server's); `next(i)` makes the run's i-th request. Answers other than `expect`
   * count as errors. `rate` caps the requests a second over all connections (a steady load).
   */
  async function commandCannon(base: string, expect: number, next: (i: number) => Command, rate?: number): Promise<Figures> {
    let sent = 0;
    let unexpected = 0;
    const result = await autocannon({
      url: base,
      connections: writers,
      duration: seconds,
      ...(rate && { overallRate: rate }),
      requests: [
        {
          setupRequest: (request) => {
            const { method, path, body, token, idempotencyKey } = next(sent++);
            return {
              ...request,
              method: method as 'POST',
              path,
              body: JSON.stringify(body),
              headers: {
                'content-type': 'application/json',
                ...(token && { authorization: `Bearer ${token}` }),
                ...(idempotencyKey && { 'idempotency-key': idempotencyKey }),
              },
            };
          },
          onResponse: (status, body) => {
            if (status === expect) return;
            // the first few unexpected answers are told: a count alone does not say what failed
            if (unexpected++ < 3) say(`    answered ${status} instead of ${expect}: ${String(body).slice(0, 200)}`);
          },
        },
      ],
    });
    return {
      rps: result.requests.total / result.duration,
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: unexpected + result.errors + result.timeouts,
      bytes: result.throughput.total / Math.max(1, result.requests.total),
    };
  }

  /** `clients` loops sending `request(client, i)` for the run's seconds; answers other than `expect` count as errors. */
  async function loop(clients: number, expect: number, request: (client: number, i: number) => Promise<Response>): Promise<Figures> {
    const latencies: number[] = [];
    let errors = 0;
    let bytes = 0;
    const until = performance.now() + seconds * 1000;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: clients }, async (_, client) => {
        for (let i = 0; performance.now() < until; i++) {
          const sent = performance.now();
          const response = await request(client, i);
          bytes += (await response.arrayBuffer()).byteLength;
          if (response.status !== expect) errors++;
          else latencies.push(performance.now() - sent);
        }
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    return {
      rps: latencies.length / elapsed,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      errors,
      bytes: bytes / Math.max(1, latencies.length + errors),
    };
  }

  /** Rounds of `forum` then `bare`, interleaved; each side's medians. */
  async function sideBySide(label: string, forum: () => Promise<Figures>, bare: () => Promise<Figures>) {
    const forumRuns: Figures[] = [];
    const bareRuns: Figures[] = [];
    for (let round = 0; round < rounds; round++) {
      forumRuns.push(await forum());
      bareRuns.push(await bare());
    }
    const row = { label, forum: medianOf(forumRuns), bare: medianOf(bareRuns) };
    const each = (runs: readonly Figures[]) => runs.map((run) => Math.round(run.rps)).join(' / ');
    say(
      `  ${label}: forum ${Math.round(row.forum.rps)}/s p50 ${row.forum.p50} ms (rounds ${each(forumRuns)}), bare ${Math.round(row.bare.rps)}/s p50 ${row.bare.p50} ms (${each(bareRuns)}) (${(row.forum.rps / row.bare.rps).toFixed(2)})`,
    );
    return row;
  }

  return { cannon, commandCannon, loop, sideBySide };
}

export type Row = Awaited<ReturnType<ReturnType<typeof measuring>['sideBySide']>>;

export const table = (title: string, rows: readonly Row[]) => [
  `| ${title} | forum req/s | p50 ms | p99 ms | errors | bare req/s | p50 ms | p99 ms | forum / bare | bytes (forum / bare) |`,
  '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
  ...rows.map(
    ({ label, forum, bare }) =>
      `| ${label} | ${Math.round(forum.rps).toLocaleString('en')} | ${msText(forum.p50)} | ${msText(forum.p99)} | ${forum.errors} | ${Math.round(bare.rps).toLocaleString('en')} | ${msText(bare.p50)} | ${msText(bare.p99)} | ${(forum.rps / bare.rps).toFixed(2)} | ${Math.round(forum.bytes)} / ${Math.round(bare.bytes)} |`,
  ),
];
