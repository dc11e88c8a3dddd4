/**
 * The body of an answer once it is known to have `status`: parsed JSON, the text when it is not
 * JSON, undefined when empty. Otherwise it fails with the status and the body in its message.
 * It throws a plain Error (not vitest's expect) so that scripts outside a test run can use it too.
 */
export async function expectStatus<T = unknown>(response: Response | Promise<Response>, status = 200, what = 'the answer'): Promise<T> {
  const answer = await response;
  const text = await answer.text();
  if (answer.status !== status) throw new Error(`${what}: expected status ${status}, got ${answer.status}: ${text.slice(0, 2_000)}`);
  if (text === '') return undefined as T;
  return ((answer.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text) as T;
}
