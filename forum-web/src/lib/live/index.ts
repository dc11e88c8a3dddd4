export { LiveStream, type LiveStreamOptions } from './live-stream';
export { LiveProvider, useLiveTopic } from './live-context';
export { postTopic } from '@forum/contracts';
