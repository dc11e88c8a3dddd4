/** A fixed, valid v4-shaped id numbered `n` (`uuidOf(7)` is `00000000-0000-4000-8000-000000000007`), so tests can name and order ids. */
export const uuidOf = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
