import { passwordProblem } from '@forum/contracts';
import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from './seed.ts';

/** The seed writes the demo accounts straight into the realm's store, past the register form's checks. */
describe('the demo accounts', () => {
  it("have a password that meets the forum's password rules (and so the Keycloak export's policy)", () => {
    expect(passwordProblem(DEMO_PASSWORD)).toBeNull();
  });
});
