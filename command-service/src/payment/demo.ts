import { createHash } from 'node:crypto';
import type { ChargeRequest, ChargeResult, PaymentProvider } from './port.ts';

/**
 * The embedded default: confirms after a short simulated wait (the spec's
 * upgrade wait), with a reference derived from the idempotency key, so a
 * repeated key gives the same charge. Like a card processor's test mode, it
 * declines customers whose email contains "+decline".
 */
export function demoPaymentProvider(options: { delayMs: number }): PaymentProvider {
  const charges = new Map<string, ChargeResult>();
  return {
    async charge(request: ChargeRequest): Promise<ChargeResult> {
      const earlier = charges.get(request.idempotencyKey);
      if (earlier) return earlier;
      await new Promise((resolve) => setTimeout(resolve, options.delayMs));
      const result: ChargeResult = request.customer.email.includes('+decline')
        ? { ok: false, reason: 'card_declined' }
        : { ok: true, reference: `demo_${createHash('sha256').update(request.idempotencyKey).digest('hex').slice(0, 24)}` };
      charges.set(request.idempotencyKey, result);
      return result;
    },
  };
}
