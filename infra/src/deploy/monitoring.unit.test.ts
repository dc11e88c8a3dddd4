import { createMetrics } from '@forum/platform';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseScrape, type Scrape } from '../testing/prometheus.ts';
import { read } from './deploy-files.ts';
import { selectorsOf, type Selector } from './promql.ts';

/**
 * deploy/prometheus (the alert rules and a scrape configuration) and deploy/grafana (the dashboard):
 * each parses and has the shape its tool reads, and every metric and label their expressions name
 * is one the forum exports, read from a scrape of the registry every process makes (createMetrics).
 * promtool is not on this machine: the rules' structure is checked here, their PromQL read by
 * promql.ts.
 */
interface Rule {
  alert?: unknown;
  expr?: unknown;
  for?: unknown;
  labels?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

const alerts = parse(read('prometheus/alerts.yaml')) as { groups?: { name?: unknown; rules?: Rule[] }[] };
const dashboard = JSON.parse(read('grafana/forum-dashboard.json')) as {
  uid?: unknown;
  title?: unknown;
  schemaVersion?: unknown;
  templating: { list: { name: string; type: string; query: unknown }[] };
  panels: {
    id: number;
    type: string;
    title: string;
    gridPos: { x: number; y: number; w: number; h: number };
    datasource: { uid: string };
    targets: { expr: string; refId: string }[];
  }[];
};

/** The labels every series may carry besides its own: the process's (`service`), Prometheus's target labels, a histogram's buckets. */
const COMMON_LABELS = ['service', 'job', 'instance'];
/** Series Prometheus makes itself for each target. */
const PROMETHEUS_OWN = new Map([['up', COMMON_LABELS]]);

let scraped: Scrape;
/** Every series name a scrape may hold, with the labels it may carry (a histogram's _bucket, _sum and _count each). */
const exported = new Map<string, string[]>();

beforeAll(async () => {
  const metrics = createMetrics('monitoring-test');
  scraped = parseScrape(await metrics.registry.metrics());
  for (const metric of metrics.registry.getMetricsAsArray() as unknown as { name: string; labelNames?: string[] }[]) {
    const labels = [...(metric.labelNames ?? []), ...COMMON_LABELS];
    const type = scraped.families.get(metric.name);
    if (type === 'histogram') {
      exported.set(`${metric.name}_bucket`, [...labels, 'le']);
      for (const suffix of ['_sum', '_count']) exported.set(`${metric.name}${suffix}`, labels);
    } else exported.set(metric.name, type === 'summary' ? [...labels, 'quantile'] : labels);
  }
  for (const [name, labels] of PROMETHEUS_OWN) exported.set(name, labels);
});

/** What is wrong with `selectors` against what the forum exports: an unknown metric, or a label it does not carry. */
const problemsOf = (where: string, selectors: readonly Selector[]) =>
  selectors.flatMap(({ name, labels }) => {
    const known = exported.get(name);
    if (!known) return [`${where}: no metric ${name}`];
    return labels.filter((label) => !known.includes(label)).map((label) => `${where}: ${name} has no label ${label}`);
  });

describe('the registry every process serves', () => {
  it("holds the forum's families and Node's own under their standard names", () => {
    for (const family of [
      'forum_http_request_duration_seconds',
      'forum_commands_total',
      'forum_eventstore_appends_total',
      'forum_eventstore_group_commit_size',
      'forum_projection_lag_events',
      'forum_projection_lag_seconds',
      'forum_projection_build_progress_ratio',
      'forum_live_streams_open',
      'forum_visitor_cache_lookups_total',
      'forum_db_pool_connections',
      'forum_write_limit_refusals_total',
      'forum_ready',
      'process_cpu_seconds_total',
      'nodejs_eventloop_lag_p99_seconds',
    ])
      expect(scraped.families.has(family), family).toBe(true);
  });
});

describe('deploy/prometheus/alerts.yaml', () => {
  const rules = (alerts.groups ?? []).flatMap((group) => group.rules ?? []);

  it('is a rule file: named groups of alerting rules, each with a duration, a severity and words for the operator', () => {
    expect(alerts.groups?.length).toBeGreaterThan(0);
    for (const group of alerts.groups!) expect(typeof group.name).toBe('string');
    for (const rule of rules) {
      expect(rule.alert, JSON.stringify(rule)).toMatch(/^[A-Z][A-Za-z0-9]+$/);
      expect(typeof rule.expr, String(rule.alert)).toBe('string');
      expect(rule.for, String(rule.alert)).toMatch(/^\d+[smh]$/);
      expect(['critical', 'warning'], String(rule.alert)).toContain(rule.labels?.severity);
      expect(typeof rule.annotations?.summary, String(rule.alert)).toBe('string');
      expect(typeof rule.annotations?.description, String(rule.alert)).toBe('string');
    }
    expect(new Set(rules.map((rule) => rule.alert)).size).toBe(rules.length);
  });

  it('alerts on the lag of projections, the rate of 5xx, the p99 of answers and readiness', () => {
    const exprs = rules.map((rule) => String(rule.expr));
    expect(exprs.some((expr) => expr.includes('forum_projection_lag_seconds'))).toBe(true);
    expect(exprs.some((expr) => expr.includes('status=~"5.."'))).toBe(true);
    expect(exprs.some((expr) => expr.startsWith('histogram_quantile(0.99,'))).toBe(true);
    expect(exprs.some((expr) => expr.includes('forum_ready'))).toBe(true);
    expect(exprs.some((expr) => expr.startsWith('up{'))).toBe(true);
  });

  it('names only metrics and labels the forum exports, and only PromQL functions', () => {
    const problems = rules.flatMap((rule) => {
      const { selectors, unknownFunctions } = selectorsOf(String(rule.expr));
      expect(selectors.length, String(rule.alert)).toBeGreaterThan(0);
      return [...problemsOf(String(rule.alert), selectors), ...unknownFunctions.map((name) => `${String(rule.alert)}: no function ${name}`)];
    });
    expect(problems).toEqual([]);
  });
});

describe('deploy/prometheus/prometheus.yml', () => {
  it('loads the alerts and scrapes the forum as one job, `forum`, the alerts and the dashboard name', () => {
    const config = parse(read('prometheus/prometheus.yml')) as {
      rule_files: string[];
      scrape_configs: { job_name: string; static_configs?: { targets: string[] }[]; relabel_configs?: { target_label?: string; replacement?: string }[] }[];
    };
    expect(config.rule_files).toEqual(['alerts.yaml']);
    const [compose, kubernetes] = config.scrape_configs;
    expect(compose!.job_name).toBe('forum');
    expect(compose!.static_configs![0]!.targets.every((target) => target.endsWith(':9464'))).toBe(true);
    expect(kubernetes!.relabel_configs!.some((relabel) => relabel.target_label === 'job' && relabel.replacement === 'forum')).toBe(true);
  });
});

describe('deploy/grafana/forum-dashboard.json', () => {
  it('is a dashboard Grafana imports: an uid, a title, panels on the 24-column grid, each on the Prometheus data source chosen', () => {
    expect(dashboard.uid).toBe('forum-overview');
    expect(typeof dashboard.title).toBe('string');
    expect(typeof dashboard.schemaVersion).toBe('number');
    expect(dashboard.templating.list.find((variable) => variable.type === 'datasource')).toMatchObject({ name: 'datasource', query: 'prometheus' });
    expect(new Set(dashboard.panels.map((panel) => panel.id)).size).toBe(dashboard.panels.length);
    for (const panel of dashboard.panels) {
      expect(panel.gridPos.x + panel.gridPos.w, panel.title).toBeLessThanOrEqual(24);
      expect(panel.datasource.uid, panel.title).toBe('${datasource}');
      expect(panel.targets.length, panel.title).toBeGreaterThan(0);
    }
  });

  it('shows every family the forum exports of its own, and names only those', () => {
    const problems: string[] = [];
    const named = new Set<string>();
    for (const panel of dashboard.panels)
      for (const target of panel.targets) {
        const { selectors, unknownFunctions } = selectorsOf(target.expr);
        problems.push(...problemsOf(`${panel.title} ${target.refId}`, selectors), ...unknownFunctions.map((name) => `${panel.title}: no function ${name}`));
        for (const { name } of selectors) named.add(name.replace(/_(bucket|sum|count)$/, ''));
      }
    for (const variable of dashboard.templating.list.filter((variable) => variable.type === 'query')) {
      const [, metric, label] = /^label_values\((\w+), (\w+)\)$/.exec((variable.query as { query: string }).query) ?? [];
      problems.push(...problemsOf(`variable ${variable.name}`, [{ name: metric ?? '(none)', labels: [label ?? '(none)'] }]));
    }
    expect(problems).toEqual([]);
    const ours = [...scraped.families.keys()].filter((family) => family.startsWith('forum_'));
    expect(ours.filter((family) => !named.has(family))).toEqual([]);
  });
});
