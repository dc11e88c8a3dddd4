import { escapeHtml } from './layout.ts';

/** 'Continue with Google': a link when configured, else a disabled button with why written under it. */
export type GoogleButton = { href: string } | { unavailable: string };

const GOOGLE_MARK = `<svg width="18" height="18" viewBox="0 0 48 48" aria-hidden="true" focusable="false"><path fill="#EA4335" d="M24 9.5c3.54 0 6.71 1.22 9.21 3.6l6.85-6.85C35.9 2.38 30.47 0 24 0 14.62 0 6.51 5.38 2.56 13.22l7.98 6.19C12.43 13.72 17.74 9.5 24 9.5z"/><path fill="#4285F4" d="M46.98 24.55c0-1.57-.15-3.09-.38-4.55H24v9.02h12.94c-.58 2.96-2.26 5.48-4.78 7.18l7.73 6c4.51-4.18 7.09-10.36 7.09-17.65z"/><path fill="#FBBC05" d="M10.53 28.59c-.48-1.45-.76-2.99-.76-4.59s.27-3.14.76-4.59l-7.98-6.19C.92 16.46 0 20.12 0 24c0 3.88.92 7.54 2.56 10.78l7.97-6.19z"/><path fill="#34A853" d="M24 48c6.48 0 11.93-2.13 15.89-5.81l-7.73-6c-2.15 1.45-4.92 2.3-8.16 2.3-6.26 0-11.57-4.22-13.47-9.91l-7.98 6.19C6.51 42.62 14.62 48 24 48z"/></svg>`;

export function googleButton(button: GoogleButton): string {
  const label = `${GOOGLE_MARK}<span>Continue with Google</span>`;
  const inner =
    'href' in button
      ? `<a class="social" id="social-google" href="${escapeHtml(button.href)}">${label}</a>`
      : `<button type="button" class="social" id="social-google" disabled aria-describedby="social-google-why">${label}</button>
<p class="social-why" id="social-google-why">${escapeHtml(button.unavailable)}</p>`;
  return `<div class="divider">or</div>\n${inner}`;
}

export function alert(message: string | undefined): string {
  return message ? `<div class="alert" role="alert">${escapeHtml(message)}</div>` : '';
}

export function notice(lines: readonly string[] | undefined): string {
  return lines?.length ? `<div class="notice" role="status">${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('')}</div>` : '';
}

/**
 * One required input: its label marked ' *' from the start (the mark is hidden from screen readers,
 * which hear `required`), maybe a help text always in view, and its inline error (the element is
 * always there, for the page's own checks). The input is described by the help, then the error.
 */
export function field(options: {
  id: string;
  label: string;
  type: 'text' | 'email' | 'url' | 'password';
  autocomplete: string;
  value?: string;
  error?: string;
  help?: string;
  autofocus?: boolean;
  toggle?: boolean;
  maxlength?: number;
  /** The field may be left empty (fields are required otherwise). */
  optional?: boolean;
}): string {
  const errorId = `${options.id}-error`;
  const helpId = `${options.id}-help`;
  const attributes = [
    `id="${options.id}"`,
    `name="${options.id}"`,
    `type="${options.type}"`,
    `autocomplete="${options.autocomplete}"`,
    ...(options.optional ? [] : ['required']),
    `aria-describedby="${options.help ? `${helpId} ` : ''}${errorId}"`,
    ...(options.maxlength ? [`maxlength="${options.maxlength}"`] : []),
    ...(options.error ? ['aria-invalid="true"'] : []),
    ...(options.autofocus ? ['autofocus'] : []),
    ...(options.value !== undefined ? [`value="${escapeHtml(options.value)}"`] : []),
  ].join(' ');
  const input = `<input ${attributes}>`;
  const control = options.toggle
    ? `<div class="password">
${input}
<button type="button" class="toggle" id="toggle-${options.id}" data-toggle="${options.id}" aria-controls="${options.id}" aria-pressed="false" aria-label="Show password" hidden>Show</button>
</div>`
    : input;
  return `<div class="field">
<label for="${options.id}">${escapeHtml(options.label)}${options.optional ? '' : '<span class="required" aria-hidden="true"> *</span>'}</label>
${control}
${
  options.help
    ? `<p class="field-help" id="${helpId}">${escapeHtml(options.help)}</p>
`
    : ''
}<p class="field-error" id="${errorId}"${options.error ? '' : ' hidden'}>${escapeHtml(options.error ?? '')}</p>
</div>`;
}
