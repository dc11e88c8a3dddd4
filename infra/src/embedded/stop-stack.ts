import type { Logger } from '@forum/platform';

/** What a start has started, stopped in the reverse order; a failing stop is logged and the others still run. */
export class StopStack {
  private readonly stops: (() => Promise<void>)[] = [];

  constructor(private readonly logger: Logger) {}

  push(stop: () => Promise<void>): void {
    this.stops.push(stop);
  }

  async stopAll(): Promise<void> {
    for (const stop of this.stops.reverse()) await stop().catch((error) => this.logger.error({ err: error }, 'error while stopping'));
    this.stops.length = 0;
  }
}
