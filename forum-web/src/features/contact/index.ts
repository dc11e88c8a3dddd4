export { useSendContactMessageMutation } from './api/send-message';
