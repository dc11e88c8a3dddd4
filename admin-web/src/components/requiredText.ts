/** A required text (spec §5's message when it is missing or only spaces, as the API decides). */
export const requiredText = (message: string) =>
  Object.assign((value: unknown) => (typeof value === 'string' && value.trim() ? undefined : message), { isRequired: true });
