import { readdir, readFile } from 'node:fs/promises';

/** What a process under the root is, from its command name and command line. */
export type ProcessGroup = (process: { pid: number; comm: string; cmdline: string }) => string;

/**
 * A bench's processes: those it started, by name (`{ forum: pid }`), this process as the load
 * generator, PostgreSQL's, and the rest by their command name.
 */
export const benchProcesses =
  (named: Readonly<Record<string, number>>): ProcessGroup =>
  ({ pid, comm }) =>
    Object.entries(named).find(([, own]) => own === pid)?.[0] ??
    (pid === process.pid ? 'load generator' : comm === 'postgres' ? 'PostgreSQL' : `other (${comm})`);

/** Clock ticks a second as Linux reports CPU time in /proc/<pid>/stat (USER_HZ, 100 on every Linux build in use). */
const TICKS_PER_SECOND = 100;

interface Stat {
  readonly ppid: number;
  readonly comm: string;
  /** User and system CPU time, in ticks. */
  readonly ticks: number;
}

async function statOf(pid: number): Promise<Stat | null> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  if (!stat) return null;
  // pid (comm) state ppid …: the name may hold spaces and parentheses, so read after its last ')'
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are the line's 14th and 15th fields: the 12th and 13th after the name
  return { ppid: Number(fields[1]), comm: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), ticks: Number(fields[11]) + Number(fields[12]) };
}

/**
 * The CPU seconds spent by `root` and the processes under it, by group, read from /proc every
 * `everyMs` while it runs (Linux). Processes that start meanwhile count from their start; a process
 * that dies loses what it spent since the last sample (at most `everyMs`' worth), so the sampling is
 * frequent. Other processes on the machine (another test's PostgreSQL, say) are not counted.
 */
export class CpuSplit {
  /** Every process seen, with its group (null: not under the root) and its ticks at the last sample. */
  private readonly seen = new Map<number, { group: string | null; ticks: number }>();
  private readonly totals = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private sampling: Promise<void> = Promise.resolve();

  constructor(
    private readonly root: number,
    private readonly groupOf: ProcessGroup,
    private readonly everyMs = 500,
  ) {}

  /** Takes the first sample (what each process spent before is not counted), then samples on. */
  async start(): Promise<void> {
    await this.sample(false);
    this.timer = setInterval(() => {
      this.sampling = this.sampling.then(() => this.sample(true));
    }, this.everyMs);
  }

  /** Takes a last sample and gives the CPU seconds by group. */
  async stop(): Promise<Map<string, number>> {
    if (this.timer) clearInterval(this.timer);
    await this.sampling;
    await this.sample(true);
    return new Map(this.totals);
  }

  private async sample(counting: boolean) {
    for (const name of await readdir('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      const pid = Number(name);
      const stat = await statOf(pid);
      if (!stat) continue;
      let known = this.seen.get(pid);
      // fewer ticks than last time: the pid is another process's now
      if (!known || stat.ticks < known.ticks) {
        const group = (await this.isUnderRoot(pid, stat)) ? this.groupOf({ pid, comm: stat.comm, cmdline: await cmdlineOf(pid) }) : null;
        // a process first seen after the start began during the run: all it spent counts
        known = { group, ticks: counting ? 0 : stat.ticks };
        this.seen.set(pid, known);
      }
      if (known.group !== null) this.totals.set(known.group, (this.totals.get(known.group) ?? 0) + (stat.ticks - known.ticks) / TICKS_PER_SECOND);
      known.ticks = stat.ticks;
    }
  }

  private async isUnderRoot(pid: number, stat: Stat | null): Promise<boolean> {
    for (let depth = 0; stat && depth < 64; depth++) {
      if (pid === this.root) return true;
      if (stat.ppid <= 1) return false;
      const parent = this.seen.get(stat.ppid);
      if (parent) return parent.group !== null;
      pid = stat.ppid;
      stat = await statOf(pid);
    }
    return false;
  }
}

const cmdlineOf = async (pid: number) => (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).replaceAll('\0', ' ');
