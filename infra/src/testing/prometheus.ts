/** One sample of a scrape in Prometheus's text format. */
export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** A scrape, read: its samples and its families' types (`# TYPE name type`). */
export interface Scrape {
  readonly samples: readonly Sample[];
  readonly families: ReadonlyMap<string, string>;
  /** The sum of the samples of `name` whose labels include `labels`; 0 when there are none. */
  sum(name: string, labels?: Readonly<Record<string, string>>): number;
  /** The samples of `name` whose labels include `labels`. */
  find(name: string, labels?: Readonly<Record<string, string>>): Sample[];
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Reads Prometheus's text exposition format (what prom-client writes); throws on a line it cannot read. */
export function parseScrape(text: string): Scrape {
  const samples: Sample[] = [];
  const families = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    if (line.startsWith('#')) {
      const type = /^# TYPE (\S+) (\S+)$/.exec(line);
      if (type) families.set(type[1]!, type[2]!);
      continue;
    }
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, name, value] of (match[2] ?? '').matchAll(LABEL)) labels[name!] = value!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  const find = (name: string, labels: Readonly<Record<string, string>> = {}) =>
    samples.filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value));
  return { samples, families, find, sum: (name, labels) => find(name, labels).reduce((total, sample) => total + sample.value, 0) };
}

/** GET `url` (a metrics listener's /metrics), read. */
export async function scrape(url: string): Promise<Scrape> {
  const answer = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  if (answer.status !== 200) throw new Error(`${url} answered ${answer.status}`);
  return parseScrape(await answer.text());
}
