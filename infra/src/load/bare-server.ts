/**
 * The scale bench's baseline: the least a Node.js server can do to answer the forum's reads, a bare
 * `node:http` server on a `pg` pool running, for each read, the very statements the query-service
 * ran for it (captured by scale-bench.ts), and sending their rows as JSON. No framework, no
 * logging, no auth, no validation: what is left of a read's cost is PostgreSQL's, pg's and the
 * socket's. Its writes are the least a durable write costs over HTTP: one INSERT of the request's
 * body, committed.
 *
 * Run as its own process (as the forum is): `node --import tsx bare-server.ts <routes.json>`; it
 * prints `listening <port>` when it answers.
 *   GET  /read/<name>  the statements of read <name>, one after another on one connection
 *   POST /write        the body into bench_bare.writes
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import pg from 'pg';

export interface CapturedStatement {
  readonly text: string;
  readonly values?: readonly unknown[];
  /** A prepared statement's name, when the forum prepared it. */
  readonly name?: string;
}

export interface BareRoutes {
  readonly databaseUrl: string;
  readonly poolSize: number;
  readonly reads: Record<string, readonly CapturedStatement[]>;
}

const TRANSACTION_CONTROL = /^\s*(BEGIN|COMMIT|ROLLBACK|SET|START)\b/i;

async function main(file: string) {
  const routes = JSON.parse(readFileSync(file, 'utf8')) as BareRoutes;
  const pool = new pg.Pool({ connectionString: routes.databaseUrl, max: routes.poolSize, application_name: 'bench-bare' });
  pool.on('error', () => {});
  await pool.query('CREATE SCHEMA IF NOT EXISTS bench_bare; CREATE TABLE IF NOT EXISTS bench_bare.writes (id bigserial PRIMARY KEY, body jsonb NOT NULL)');

  const read = async (statements: readonly CapturedStatement[]) => {
    const client = await pool.connect();
    try {
      const results: unknown[] = [];
      for (const statement of statements) {
        const result = await client.query({
          text: statement.text,
          values: statement.values as unknown[] | undefined,
          ...(statement.name ? { name: statement.name } : {}),
        });
        if (!TRANSACTION_CONTROL.test(statement.text)) results.push(result.rows);
      }
      return results.length === 1 ? results[0] : results;
    } finally {
      client.release();
    }
  };

  const server = http.createServer((req, res) => {
    const fail = (error: unknown) => {
      res.writeHead(500, { 'Content-Type': 'text/plain' }).end(String(error));
    };
    if (req.method === 'GET' && req.url?.startsWith('/read/')) {
      const statements = routes.reads[decodeURIComponent(req.url.slice('/read/'.length))];
      if (!statements) return void res.writeHead(404).end();
      read(statements).then((body) => {
        const json = JSON.stringify(body);
        res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(json) }).end(json);
      }, fail);
      return;
    }
    if (req.method === 'POST' && req.url === '/write') {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        pool
          .query<{ id: string }>('INSERT INTO bench_bare.writes (body) VALUES ($1::jsonb) RETURNING id', [Buffer.concat(chunks).toString('utf8') || '{}'])
          .then(({ rows }) => {
            const json = JSON.stringify({ id: rows[0]!.id });
            res.writeHead(201, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(json) }).end(json);
          }, fail);
      });
      return;
    }
    res.writeHead(404).end();
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${(server.address() as { port: number }).port}\n`));
  process.on('SIGTERM', () => process.exit(0));
}

if (process.argv[2]) await main(process.argv[2]);
