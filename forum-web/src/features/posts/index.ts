export { PostList } from './components/PostList';
export { PostDetails } from './components/PostDetails';
export { TagSearch } from './components/TagSearch';
export { useHomeListPath } from './hooks/use-post-list-params';
