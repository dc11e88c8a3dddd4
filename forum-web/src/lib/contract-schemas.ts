/**
 * The contracts' response schemas forum-web checks the API's answers with. They are zod, and
 * zod is a quarter of what the home page would load before it can show anything: this module is
 * loaded on its own, when the first answer comes (see `contract` in ./contract.ts).
 */
import { PostListItem, TopVotedUser } from '@forum/contracts';

export { AnnouncementList, CommandAccepted, CommentsPage, Me, Notifications, PostCount, PostDetail, PostsPage, TagNames, UserProfile, VoteAccepted } from '@forum/contracts';

/** GET /api/my-posts/:email: the user's newest posts (up to UNPAGED_LIST_MAX; all counted in X-Total-Count). */
export const MyPosts = PostListItem.array();
/** GET /api/posts/search?tag= without a page: every post with the tag (up to UNPAGED_LIST_MAX). */
export const PostList = PostListItem.array();
/** GET /api/users/top-voted */
export const TopVotedUsers = TopVotedUser.array();
