/**
 * Locks by name, as a database's row locks: a holder keeps its names until it lets them go, and
 * another asking for one of them waits until then. Names are taken in one order (sorted), so two
 * holders of several never wait for each other in a circle.
 */
export class NamedLocks {
  private readonly held = new Map<string, Promise<void>>();

  /** Takes every one of `names`; answers the function that lets them go. */
  async take(names: Iterable<string>): Promise<() => void> {
    const taken: (() => void)[] = [];
    for (const name of [...new Set(names)].sort()) {
      for (let holder = this.held.get(name); holder; holder = this.held.get(name)) await holder;
      let letGo!: () => void;
      this.held.set(name, new Promise<void>((resolve) => (letGo = resolve)));
      taken.push(() => {
        this.held.delete(name);
        letGo();
      });
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const release of taken) release();
    };
  }
}
