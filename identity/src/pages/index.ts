/** Server-rendered pages of the realm. */
export { escapeHtml, type Page, type Site } from './layout.ts';
export type { GoogleButton } from './form-parts.ts';
export { loginPage } from './sign-in.ts';
export { registerPage, type RegisterField } from './registration.ts';
export { forgotPasswordPage, resetPasswordPage, resetRequestedPage } from './password-reset.ts';
export { mailboxPage } from './mailbox.ts';
export { messagePage } from './message.ts';
export { logoutPage, providerCsp, thirdPartyCookiesProbe } from './provider.ts';
