export { LiveStream } from './live-stream';
export type { LiveStreamOptions } from './live-options';
export { LiveProvider, useLiveTopic } from './live-context';
export { postTopic } from '@forum/contracts';
