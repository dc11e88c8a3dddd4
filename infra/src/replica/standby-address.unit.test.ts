import { describe, expect, it } from 'vitest';
import { standbyAddress } from './replica.ts';

describe("the standby's line in the primary's pg_hba.conf", () => {
  it('admits the address the standby reaches the primary at, as pg_hba.conf writes an address', () => {
    expect(standbyAddress('127.0.0.1')).toBe('127.0.0.1/32');
    expect(standbyAddress('[::1]')).toBe('::1/128');
    expect(standbyAddress('localhost')).toBe('samehost');
  });

  it('refuses a primary named by another host name before pg_hba.conf is touched (a line PostgreSQL could not start on)', () => {
    expect(() => standbyAddress('db.example.com')).toThrow(/IP address/);
  });
});
