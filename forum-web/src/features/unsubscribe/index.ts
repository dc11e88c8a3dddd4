export { UnsubscribePage } from './components/UnsubscribePage';
