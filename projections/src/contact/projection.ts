import { defineProjection } from '../runner/projection.ts';

/** The Contact page's messages, for the admins, newest first, with their total in a counter row. */
export const contactProjection = defineProjection({
  name: 'contact',
  version: 1,
  types: ['ContactMessageReceived'],
  exposes: { contact_messages: 'messages', contact_counters: 'counters' },
  async migrate(trx) {
    await trx.raw(`
      CREATE TABLE IF NOT EXISTS messages (
        id uuid PRIMARY KEY,
        name text NOT NULL,
        email text NOT NULL,
        message text NOT NULL,
        received_at timestamptz NOT NULL
      );
      CREATE INDEX IF NOT EXISTS messages_newest ON messages (received_at DESC, id DESC);
      CREATE TABLE IF NOT EXISTS counters (name text PRIMARY KEY, value bigint NOT NULL);
      INSERT INTO counters (name, value) VALUES ('messages', 0) ON CONFLICT DO NOTHING;
    `);
  },
  async apply(trx, events) {
    const messages = events.map((event) => event.data);
    if (messages.length === 0) return;
    await trx.raw(
      `WITH inserted AS (
         INSERT INTO messages (id, name, email, message, received_at)
         SELECT "messageId", name, email, message, "receivedAt"
         FROM jsonb_to_recordset(?::jsonb) AS x("messageId" uuid, name text, email text, message text, "receivedAt" timestamptz)
         ON CONFLICT (id) DO NOTHING RETURNING 1
       )
       UPDATE counters SET value = value + (SELECT count(*) FROM inserted) WHERE name = 'messages'`,
      [JSON.stringify(messages)],
    );
  },
});
