import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable, isDiskFull } from './database-unavailable.ts';

/** pg's error of a statement PostgreSQL refused, with its SQLSTATE. */
const refused = (code: string, message = 'refused') => Object.assign(new Error(message), { code, severity: 'ERROR' });

describe('isDatabaseUnavailable', () => {
  it.each([
    [
      'a refused connection (both of localhost’s addresses)',
      new AggregateError([Object.assign(new Error('connect ECONNREFUSED ::1:5432'), { code: 'ECONNREFUSED' })], ''),
    ],
    ['a reset connection', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })],
    ['a session the server ended (kill -9, a fast shutdown)', refused('57P01', 'terminating connection due to administrator command')],
    ['a server still starting', refused('57P03', 'the database system is starting up')],
    ['a server in crash recovery', refused('57P02', 'terminating connection because of crash of another server process')],
    ['a connection exception (class 08)', refused('08006', 'connection failure')],
    ['a full disk', refused('53100', 'could not extend file: No space left on device')],
    ['too many connections', refused('53300', 'sorry, too many clients already')],
    ['pg’s lost session', new Error('Connection terminated unexpectedly')],
    ['pg’s connect timeout', new Error('Connection terminated due to connection timeout')],
    ['knex’s wording of a lost session', new Error('select 1 - Connection terminated unexpectedly')],
    ['pg-pool’s connect timeout', new Error('timeout exceeded when trying to connect')],
    ['pg’s connect timeout of a client of its own', new Error('timeout expired')],
    ['pg’s statement timeout (query_timeout: a server that does not answer)', new Error('Query read timeout')],
    ['a connection ended after its statement timed out, as knex words it', new Error('select 1 - Client was closed and is not queryable')],
    ['knex’s pool timeout', new Error('Knex: Timeout acquiring a connection. The pool is probably full. Are you missing a .transacting(trx) call?')],
    ['an error that wraps one (cause)', new Error('reading the post failed', { cause: refused('57P01') })],
  ])('yes: %s', (_case, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', refused('23505', 'duplicate key value violates unique constraint')],
    ['a syntax error', refused('42601', 'syntax error at or near "selec"')],
    ['a cancelled statement (the read timeout answers it)', refused('57014', 'canceling statement due to statement timeout')],
    ['a serialization failure', refused('40001', 'could not serialize access')],
    ['an error of the code', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a message that only mentions connections', new Error('the connection string has no host')],
    ['another timeout', new Error('the payment provider’s timeout expired before it answered')],
    ['not an error', 'Connection terminated unexpectedly'],
    ['nothing', undefined],
  ])('no: %s', (_case, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});

describe('isDiskFull', () => {
  it.each([
    ['a data file that cannot grow', refused('53100', 'could not extend file "base/16384/16418": No space left on device')],
    [
      'a write PostgreSQL refused for want of space, as knex words it',
      new Error('insert into "x" - could not write to file "base/pgsql_tmp/pgsql_tmp1.0": No space left on device'),
    ],
    ['an error that wraps one (cause)', new Error('appending failed', { cause: refused('53100', 'could not extend file') })],
  ])('yes: %s', (_case, error) => {
    expect(isDiskFull(error)).toBe(true);
  });

  it.each([
    ['a server shut down', refused('57P01', 'terminating connection due to administrator command')],
    ['out of memory', refused('53200', 'out of memory')],
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
  ])('no: %s', (_case, error) => {
    expect(isDiskFull(error)).toBe(false);
  });
});
