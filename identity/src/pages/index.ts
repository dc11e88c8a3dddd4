/** Server-rendered pages of the realm. */
export { escapeHtml, renderPage, type JoinLinks, type Page, type Site } from './layout.ts';
export type { GoogleButton } from './form-parts.ts';
export { loginPage, type LoginView } from './sign-in.ts';
export { registerPage, type RegisterField, type RegisterView } from './registration.ts';
export { forgotPasswordPage, resetPasswordPage, resetRequestedPage, type ForgotView, type ResetView } from './password-reset.ts';
export { mailboxPage, type MailboxEntry } from './mailbox.ts';
export { messagePage } from './message.ts';
export { logoutPage, providerCsp, thirdPartyCookiesProbe } from './provider.ts';
