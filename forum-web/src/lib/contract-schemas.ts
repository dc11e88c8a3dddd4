/**
 * The contracts' response schemas forum-web checks the API's answers with. They are zod, and
 * zod is a quarter of what the home page would load before it can show anything: this module is
 * loaded on its own, when the first answer comes (see `contract` in ./contract.ts).
 */
import { PostListItem, TopVotedUser } from '@forum/contracts';

export {} from '@forum/contracts';

export {
  AnnouncementList,
  CommandAccepted,
  CommentRevisions,
  CommentsPage,
  Me,
  FollowedTags,
  HandleSuggestions,
  Notifications,
  NotificationPreferences,
  PostFollowing,
  PublicProfile,
  Unsubscribed,
  PostCount,
  PostDetail,
  PostRevisions,
  PostsPage,
  SearchPage,
  TagNames,
  UserProfile,
  VoteAccepted,
} from '@forum/contracts';

/** An unpaged list of posts (up to UNPAGED_LIST_MAX; all counted in X-Total-Count): GET /api/my-posts/:email. */
export const PostList = PostListItem.array();
/** GET /api/users/top-voted */
export const TopVotedUsers = TopVotedUser.array();
