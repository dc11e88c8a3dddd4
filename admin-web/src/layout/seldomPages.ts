// react-admin's pages that the console loads only when one is shown
export { AuthCallback, AuthenticationError, Error as ErrorPage, NotFound } from 'react-admin';
