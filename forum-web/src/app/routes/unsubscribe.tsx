export { UnsubscribePage } from '../../features/unsubscribe';
