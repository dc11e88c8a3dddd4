import { UPGRADE_SIMULATED_WAIT_MS } from '@forum/contracts';
import { z } from 'zod';
import { demoPaymentProvider } from './demo.ts';
import type { PaymentProvider } from './port.ts';

/** Configuration of the payment port. Only the demo provider exists so far; a real one is selected here by config. */
export const paymentSettings = {
  PAYMENT_PROVIDER: z.enum(['demo']).default('demo'),
  /** The demo provider's simulated wait (the spec's upgrade wait). */
  PAYMENT_DEMO_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(UPGRADE_SIMULATED_WAIT_MS),
};

export function paymentProviderFrom(config: { PAYMENT_PROVIDER: 'demo'; PAYMENT_DEMO_DELAY_MS: number }): PaymentProvider {
  switch (config.PAYMENT_PROVIDER) {
    case 'demo':
      return demoPaymentProvider({ delayMs: config.PAYMENT_DEMO_DELAY_MS });
  }
}
