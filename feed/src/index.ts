export type { FeedMessage, FeedPublisher } from './port.ts';
export { feedMessage, FEED_HEADERS, type FeedEvent } from './message.ts';
export { feedStatus, readFeedCheckpoint, type FeedCheckpoint, type FeedStatus } from './checkpoint.ts';
export {
  FEED_STANDBY_RETRY_MS,
  startFeedRelay,
  feedReadiness,
  type FeedRelay,
  type FeedRelayOptions,
  type FeedRelayRole,
  type FeedRelayStatus,
} from './relay.ts';
export { feedSettings, RelayConfig } from './config.ts';
export { createKafkaPublisher, type KafkaPublisherOptions } from './kafka/publisher.ts';
export { SeenPositions } from './dedupe.ts';
export { startKafkaFeed, type RunningFeed } from './start.ts';
