export { PostComments } from './components/PostComments';
export { CommentsTable } from './components/CommentsTable';
