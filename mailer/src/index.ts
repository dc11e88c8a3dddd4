export { startNotificationMailer, type NotificationMailer, type NotificationMailerOptions } from './reactor.ts';
export { mailerSettings, mailerTimings, type MailerTimings } from './settings.ts';
export type { EmailVerification } from './deliver.ts';
