import { GOOGLE } from './broker.ts';

/** Where the realm lives under the public origin (Keycloak's layout). */
export const REALM_PATH = '/realms/forum';
export const OIDC = '/protocol/openid-connect';
export const LOGIN_PATH = '/login-actions/authenticate';
export const REGISTER_PATH = '/login-actions/registration';
export const RESET_PATH = '/login-actions/reset-credentials';
export const ACTION_TOKEN_PATH = '/login-actions/action-token';
export const VERIFY_EMAIL_PATH = '/login-actions/verify-email';
export const BROKER_LOGIN_PATH = `/broker/${GOOGLE}/login`;
export const BROKER_ENDPOINT_PATH = `/broker/${GOOGLE}/endpoint`;
export const MAILBOX_PATH = '/mailbox';
export const UID = /^[A-Za-z0-9_-]{1,64}$/;

export const loginUrl = (uid: string) => `${REALM_PATH}${LOGIN_PATH}/${uid}`;
export const registerUrl = (uid: string) => `${REALM_PATH}${REGISTER_PATH}/${uid}`;
export const forgotUrl = (uid?: string) => `${REALM_PATH}${RESET_PATH}${uid ? `?interaction=${uid}` : ''}`;
