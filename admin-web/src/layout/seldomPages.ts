// react-admin's pages that ConsoleAdmin loads only when one is shown
export { AuthCallback, AuthenticationError, NotFound } from 'react-admin';
