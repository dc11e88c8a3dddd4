/**
 * Where a command's CPU goes, for the scale bench's command rows: the CPU time of each process
 * (the forum, PostgreSQL, the bare server, this load generator) per request answered, from /proc
 * (cpu-split.ts), and PostgreSQL's time by statement per request, from pg_stat_statements (the
 * bench's PostgreSQL preloads it: `STATEMENT_SETTINGS`). Statements run inside others (a
 * trigger's) are listed too, marked as nested; the totals count the top-level statements only.
 */
import type pg from 'pg';
import { benchProcesses, CpuSplit } from './cpu-split.ts';
import type { Figures } from './scale-measure.ts';

/** PostgreSQL settings that record every statement's calls and time (nested ones too). */
export const STATEMENT_SETTINGS = { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track': 'all' } as const;

export interface StatementCost {
  readonly query: string;
  readonly toplevel: boolean;
  readonly calls: number;
  /** Execution and planning time, ms. */
  readonly ms: number;
}

export interface SideCost {
  /** Answered requests over the rounds measured. */
  readonly requests: number;
  /** CPU seconds by process group over those rounds. */
  readonly cpu: Map<string, number>;
  /** PostgreSQL's statements over those rounds (the forum side only). */
  readonly statements: Map<string, StatementCost>;
}

/**
 * Measures the CPU and statements of the runs it wraps: `forum(run)` and `bare(run)` give the run
 * back with its cost added to the label's forum or bare side.
 */
export async function commandCosts(db: pg.Pool, pids: { forum: number; bare: number }, seconds: number) {
  await db.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  const costs = new Map<string, { forum: SideCost; bare: SideCost }>();
  const empty = (): SideCost => ({ requests: 0, cpu: new Map(), statements: new Map() });

  const measured = (label: string, side: 'forum' | 'bare', run: () => Promise<Figures>) => async () => {
    const entry = costs.get(label) ?? { forum: empty(), bare: empty() };
    costs.set(label, entry);
    await db.query('SELECT pg_stat_statements_reset()');
    const split = new CpuSplit(process.pid, benchProcesses({ forum: pids.forum, 'bare server': pids.bare }), 1000);
    await split.start();
    const figures = await run();
    const cpu = await split.stop();
    const statements = side === 'forum' ? await statementsNow(db) : [];
    const into = entry[side];
    entry[side] = {
      requests: into.requests + figures.rps * seconds,
      cpu: addUp(into.cpu, cpu),
      statements: addStatements(into.statements, statements),
    };
    return figures;
  };

  return {
    forum: (label: string, run: () => Promise<Figures>) => measured(label, 'forum', run),
    bare: (label: string, run: () => Promise<Figures>) => measured(label, 'bare', run),
    /** Markdown lines: each command's CPU per request by process, then the forum's statements per request. */
    report(): string[] {
      const lines: string[] = [];
      const groups = ['forum', 'bare server', 'PostgreSQL', 'load generator'];
      const perRequest = (side: SideCost, name: string) => ((side.cpu.get(name) ?? 0) * 1000) / Math.max(1, side.requests);
      const others = (side: SideCost) => [...side.cpu].filter(([name]) => !groups.includes(name)).reduce((sum, [, s]) => sum + s, 0);
      lines.push(
        '| command: CPU ms per request | forum process | bare server | PostgreSQL | load generator | other | in all |',
        '|---|--:|--:|--:|--:|--:|--:|',
      );
      for (const [label, { forum, bare }] of costs) {
        for (const [name, side] of [
          [`${label}, forum`, forum],
          [`${label}, bare`, bare],
        ] as const) {
          const all = [...side.cpu.values()].reduce((sum, s) => sum + s, 0);
          lines.push(
            `| ${name} | ${groups.map((g) => perRequest(side, g).toFixed(2)).join(' | ')} | ${((others(side) * 1000) / Math.max(1, side.requests)).toFixed(2)} | ${((all * 1000) / Math.max(1, side.requests)).toFixed(2)} |`,
          );
        }
      }
      for (const [label, { forum }] of costs) {
        const top = [...forum.statements.values()].filter((s) => s.toplevel);
        const total = top.reduce((sum, s) => sum + s.ms, 0);
        const calls = top.reduce((sum, s) => sum + s.calls, 0);
        const n = Math.max(1, forum.requests);
        lines.push(
          '',
          `${label}: PostgreSQL, by statement (the forum side; ${(calls / n).toFixed(1)} top-level statements and ${(total / n).toFixed(3)} ms of their time per request)`,
          '',
          '| statement | calls per request | ms per request | ms per call |',
          '|---|--:|--:|--:|',
          ...[...forum.statements.values()]
            .sort((a, b) => b.ms - a.ms)
            .slice(0, 16)
            .map(
              (s) =>
                `| ${s.toplevel ? '' : '(nested) '}\`${shorten(s.query)}\` | ${(s.calls / n).toFixed(2)} | ${(s.ms / n).toFixed(3)} | ${(s.ms / Math.max(1, s.calls)).toFixed(3)} |`,
            ),
        );
      }
      return lines;
    },
  };
}

async function statementsNow(db: pg.Pool): Promise<StatementCost[]> {
  const { rows } = await db.query<{ query: string; toplevel: boolean; calls: string; ms: number }>(
    `SELECT query, toplevel, calls::text, total_exec_time + total_plan_time AS ms FROM pg_stat_statements
     WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND query NOT LIKE '%pg_stat_statements%'`,
  );
  return rows.map((row) => ({ query: row.query, toplevel: row.toplevel, calls: Number(row.calls), ms: row.ms }));
}

function addUp(into: Map<string, number>, more: Map<string, number>) {
  const sum = new Map(into);
  for (const [name, value] of more) sum.set(name, (sum.get(name) ?? 0) + value);
  return sum;
}

function addStatements(into: Map<string, StatementCost>, more: readonly StatementCost[]) {
  const sum = new Map(into);
  for (const statement of more) {
    const key = `${statement.toplevel}:${statement.query}`;
    const was = sum.get(key);
    sum.set(key, was ? { ...was, calls: was.calls + statement.calls, ms: was.ms + statement.ms } : statement);
  }
  return sum;
}

/** A statement on one line, at most 110 characters, without Markdown's table separator. */
const shorten = (query: string) => {
  const line = query.replace(/\s+/g, ' ').replaceAll('|', '¦').replaceAll('`', "'").trim();
  return line.length > 110 ? `${line.slice(0, 107)}…` : line;
};
