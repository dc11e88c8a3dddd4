import { useRef } from 'react';

/** A fresh Idempotency-Key: random, visible ASCII (crypto.getRandomValues works outside secure contexts too). */
function newKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * One Idempotency-Key per attempt at a write: sending the same request again (a retry after a
 * failure or a lost answer) reuses the key, so the server applies it at most once; a changed
 * request is a new attempt with a new key.
 */
export function useAttemptKey(): (request: unknown) => string {
  const attempt = useRef<{ request: string; key: string } | null>(null);
  return (request) => {
    const text = JSON.stringify(request);
    if (attempt.current?.request !== text) attempt.current = { request: text, key: newKey() };
    return attempt.current.key;
  };
}
