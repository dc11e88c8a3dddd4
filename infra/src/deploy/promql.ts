/**
 * What the deployment's monitoring files ask of the metrics: the series a PromQL expression selects,
 * read without a PromQL engine (promtool is not on this machine). Enough for the expressions of
 * deploy/prometheus and deploy/grafana: selectors, functions, aggregations, binary operators.
 */
export interface Selector {
  /** The metric's name as written (a histogram's _bucket, _sum or _count included). */
  readonly name: string;
  /** The label names its matchers name. */
  readonly labels: readonly string[];
}

/** The PromQL functions and aggregations the files may call. */
export const PROMQL_FUNCTIONS = new Set([
  'abs',
  'absent',
  'avg',
  'avg_over_time',
  'clamp_min',
  'clamp_max',
  'count',
  'count_over_time',
  'delta',
  'deriv',
  'histogram_quantile',
  'increase',
  'irate',
  'label_values',
  'max',
  'max_over_time',
  'min',
  'min_over_time',
  'quantile',
  'rate',
  'resets',
  'sum',
  'sum_over_time',
  'topk',
  'bottomk',
  'time',
  'timestamp',
  'vector',
]);
const KEYWORDS = new Set(['and', 'or', 'unless', 'bool', 'offset', 'by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'inf', 'nan']);

/** The selectors of `expr`, and the functions it calls that PROMQL_FUNCTIONS does not know; throws when its brackets do not pair. */
export function selectorsOf(expr: string): { selectors: Selector[]; unknownFunctions: string[] } {
  // strings first (a matcher's value, a Grafana variable in one), then groupings and ranges
  let text = expr.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""');
  for (const [open, close] of ['()', '{}', '[]']) {
    let depth = 0;
    for (const char of text) {
      depth += char === open ? 1 : char === close ? -1 : 0;
      if (depth < 0) break;
    }
    if (depth !== 0) throw new Error(`unpaired ${open}${close} in: ${expr}`);
  }
  text = text.replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ').replace(/\[[^\]]*\]/g, ' ');
  const selectors: Selector[] = [];
  const unknownFunctions: string[] = [];
  for (const match of text.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)\s*(\{[^}]*\})?(\s*\()?/g)) {
    const [, name, matchers, call] = match;
    const before = text[match.index - 1];
    // a number's exponent or a unit (1e3, 5m) is not a name
    if (before !== undefined && /[0-9.]/.test(before)) continue;
    if (call && !matchers) {
      if (!PROMQL_FUNCTIONS.has(name!)) unknownFunctions.push(name!);
      continue;
    }
    if (KEYWORDS.has(name!.toLowerCase())) continue;
    selectors.push({ name: name!, labels: [...(matchers ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)\s*(?:=~|!~|!=|=)/g)].map((m) => m[1]!) });
  }
  return { selectors, unknownFunctions };
}
