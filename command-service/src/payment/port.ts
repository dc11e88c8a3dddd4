/**
 * The payment port. A charge carries an idempotency key: the same key charges
 * at most once, however often it is sent (the provider's guarantee, which the
 * membership purchase relies on after a crash).
 */
export interface ChargeRequest {
  readonly idempotencyKey: string;
  readonly amountCents: number;
  readonly currency: string;
  readonly customer: { readonly id: string; readonly email: string };
  readonly description: string;
}

export type ChargeResult = { readonly ok: true; readonly reference: string } | { readonly ok: false; readonly reason: string };

export interface PaymentProvider {
  charge(request: ChargeRequest): Promise<ChargeResult>;
}
