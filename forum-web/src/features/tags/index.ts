export { TagStrip } from './components/TagStrip';
export { TaggedPosts } from './components/TaggedPosts';
