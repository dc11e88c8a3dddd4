/** Text as it may stand in HTML, in an element or an attribute's quotes: the characters HTML reads as markup, as references. */
export function escapeHtml(value: string | number | null | undefined): string {
  return String(value ?? '').replace(/[&<>"'`]/g, (c) => `&#${c.charCodeAt(0)};`);
}
