// react-admin's pages (and toasts) that the console loads only when one is shown
export { AuthCallback, AuthenticationError, Error as ErrorPage, NotFound, Notification } from 'react-admin';
