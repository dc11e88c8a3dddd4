import pg from 'pg';
import type { Logger } from './logger.ts';

export interface NotificationListenerOptions {
  connectionString: string;
  /** The channels to LISTEN on. */
  channels: readonly string[];
  /** The session's application_name, as pg_stat_activity shows it. */
  applicationName: string;
  logger: Logger;
  /** A NOTIFY on one of the channels. */
  onNotification(channel: string, payload: string): void;
  /**
   * Each time LISTEN takes effect on a new connection, the first one included. What was sent while
   * no connection listened is lost: a caller that keeps state from notifications reads it again here.
   */
  onListening?(): void;
  /** The first wait before connecting again after a lost or failed connection, doubled each failure up to `maxRetryMs`. */
  firstRetryMs?: number;
  maxRetryMs?: number;
}

export interface NotificationListener {
  /** Settles when the first attempt ends: fulfilled once listening, rejected when it failed (attempts go on). */
  readonly started: Promise<void>;
  /** Ends the connection and any further attempt; no callback runs after it. */
  close(): Promise<void>;
}

/**
 * LISTEN on one dedicated connection that outlives its losses: after an error or an end of the
 * session (a restarted server, a terminated backend) it connects again with back-off and LISTENs
 * again. Notifications are wake-up hints, never a queue: one sent while no session listened is
 * gone, which `onListening` tells the caller.
 */
export function listenForNotifications(options: NotificationListenerOptions): NotificationListener {
  const firstRetryMs = options.firstRetryMs ?? 100;
  const maxRetryMs = options.maxRetryMs ?? 5_000;
  const listen = options.channels.map((channel) => `LISTEN ${pg.escapeIdentifier(channel)}`).join('; ');
  const log = options.logger.child({ channels: options.channels });
  let session: pg.Client | null = null;
  let retry: NodeJS.Timeout | null = null;
  let retryMs = firstRetryMs;
  let closed = false;
  let wasLost = false;

  async function connect(): Promise<void> {
    const client = new pg.Client({ connectionString: options.connectionString, application_name: options.applicationName });
    session = client;
    client.on('notification', (message) => {
      if (session === client) options.onNotification(message.channel, message.payload ?? '');
    });
    client.on('error', (error) => lost(client, error));
    client.on('end', () => lost(client, new Error('the LISTEN session ended')));
    try {
      await client.connect();
      await client.query(listen);
    } catch (error) {
      lost(client, error);
      throw error;
    }
    if (session !== client) return;
    retryMs = firstRetryMs;
    if (wasLost) log.info('listening again');
    wasLost = false;
    options.onListening?.();
  }

  function lost(client: pg.Client, error: unknown): void {
    if (session !== client) return; // already handled, or closed
    session = null;
    client.end().catch(() => {});
    if (closed) return;
    // said once per loss; the attempts that fail until it listens again (a server down for long) only at debug
    if (wasLost) log.debug({ err: error, retryInMs: retryMs }, 'LISTEN session: connecting again failed');
    else log.warn({ err: error, retryInMs: retryMs }, 'LISTEN session lost; connecting again');
    wasLost = true;
    retry = setTimeout(() => {
      retry = null;
      if (!closed) connect().catch(() => {});
    }, retryMs);
    retry.unref();
    retryMs = Math.min(retryMs * 2, maxRetryMs);
  }

  const started = connect();
  started.catch(() => {});
  return {
    started,
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const client = session;
      session = null;
      await client?.end().catch(() => {});
    },
  };
}
