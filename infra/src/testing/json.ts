import { expect } from 'vitest';

/** The JSON body of an answer, once it is known to have `status` (the body is the failure's message otherwise). */
export async function json<T>(response: Response | Promise<Response>, status = 200): Promise<T> {
  const r = await response;
  const body = (await r.json()) as T;
  expect(r.status, JSON.stringify(body)).toBe(status);
  return body;
}
