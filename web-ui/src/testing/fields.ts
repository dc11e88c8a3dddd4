/** A number as the counters write it (19,990). */
export const n = (value: number) => value.toLocaleString('en-US');

/** The description of a field (the first element its aria-describedby names: the helper text), read with the field. */
export const descriptionOf = (field: HTMLElement) => document.getElementById(field.getAttribute('aria-describedby')?.split(' ')[0] ?? '')?.textContent;
