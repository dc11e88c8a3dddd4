export { PostComments } from './components/PostComments';
export { CommentsTable } from './components/CommentsTable';
export { useGetCommentsInfiniteQuery } from './api/get-comments';
