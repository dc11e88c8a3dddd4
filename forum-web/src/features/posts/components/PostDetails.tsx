import ArrowBack from '@mui/icons-material/ArrowBack';
import ChatBubbleOutline from '@mui/icons-material/ChatBubbleOutlineOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import { Box, Button, Divider, Paper, Skeleton, Stack, Typography } from '@mui/material';
import type { CommentItem } from '@forum/contracts';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Markdown, PersonAvatar, useOwnOrigin } from '@forum/web-ui';
import { AuthorName } from '../../../components/AuthorName';
import { HiddenNotice, PostMarks } from '../../../components/ModerationMarks';
import { PostGone, PostNotFound } from '../../../components/NotFoundMessage';
import { PageHead } from '../../../components/PageHead';
import { postJsonLd } from '../../../lib/json-ld';
import { TagList } from '../../../components/TagChip';
import { FormattedDate } from '../../../components/FormattedDate';
import { isGone, isNotFound } from '../../../lib/http-error';
import { useAuthState } from '../../../lib/auth';
import { useGetPostQuery } from '../../../lib/post';
import { useLivePost } from '../hooks/use-live-post';
import { OwnPostVotes } from './OwnPostVotes';
import { PostEdited } from './PostEdited';
import { ReportPost } from './ReportPost';
import { editPostPath, postPath } from '../../../lib/paths';
import { ShareMenu } from './ShareMenu';
import { VoteButtons } from './VoteButtons';

/**
 * Post detail (spec §2): author, date, title, tags, description, like and dislike, the
 * comment count and the share menu. `children` (the comments) show once the post has loaded.
 * The counts move as votes and comments come (the change stream), and a post deleted (before or
 * meanwhile) shows as deleted. `actions` stand beside the share menu (Follow). Staff's marks show too: pinned
 * and locked beside the title, and, to its author and staff, why a hidden post is hidden. A signed-in
 * reader may report someone else's post. Its head: title, description, canonical address, Open Graph
 * and JSON-LD (PageHead).
 */
export function PostDetails({
  id,
  actions,
  comments = [],
  children,
}: {
  id: string;
  actions?: ReactNode;
  /** The comments the page shows first, named in its JSON-LD. */
  comments?: readonly CommentItem[];
  children?: ReactNode;
}) {
  const { data: post, error, isLoading } = useGetPostQuery(id);
  const { status } = useAuthState();
  useLivePost(id);
  const ownOrigin = useOwnOrigin();

  if (isLoading) return <PostDetailsSkeleton />;
  if (isNotFound(error)) return <PostNotFound />;
  if (isGone(error)) return <PostGone />;
  if (!post) {
    return (
      <Stack spacing={2} sx={{ py: 6, alignItems: 'center' }}>
        <Typography variant="h5" component="h1">
          This post could not be loaded.
        </Typography>
        <Button component={Link} to="/" variant="contained">
          Back to Home
        </Button>
      </Stack>
    );
  }

  return (
    <Box component="article">
      <PageHead
        title={post.title}
        description={post.summary}
        path={postPath(post._id)}
        type="article"
        jsonLd={post.hidden ? undefined : postJsonLd(post, comments, ownOrigin)}
      />
      <Button component={Link} to="/" startIcon={<ArrowBack />} sx={{ mb: 2 }}>
        All posts
      </Button>
      <Paper variant="outlined" sx={{ p: { xs: 2.5, md: 4 } }}>
        {post.hidden && <HiddenNotice hidden={post.hidden} what="post" mine={post.byMe === true} sx={{ mb: 2.5 }} />}
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 2.5 }}>
          <PersonAvatar name={post.authorName} photo={post.authorPhoto} size={48} />
          <Box>
            <AuthorName name={post.authorName} authorId={post.authorId} variant="subtitle1" component="p" sx={{ fontWeight: 600 }} />
            <Typography variant="body2" color="text.secondary">
              <time dateTime={post.createdAt}>
                <FormattedDate value={post.createdAt} />
              </time>
              {post.editedAt && (
                // beside the date where both fit; on a line of its own on a phone, without a dot left at the end of the date's line
                <Box component="span" sx={{ display: { xs: 'block', sm: 'inline' } }}>
                  <Box component="span" aria-hidden sx={{ display: { xs: 'none', sm: 'inline' } }}>
                    {' · '}
                  </Box>
                  <PostEdited postId={post._id} editedAt={post.editedAt} />
                </Box>
              )}
            </Typography>
          </Box>
        </Stack>
        <Typography variant="h4" component="h1" sx={{ fontWeight: 700, overflowWrap: 'anywhere', fontSize: { xs: '1.75rem', sm: '2.125rem' } }}>
          {post.title}
        </Typography>
        <PostMarks pinned={post.pinned} locked={post.locked} sx={{ mt: 1.5 }} />
        <TagList tags={post.tags} sx={{ mt: 1.5 }} />
        <Markdown source={post.description} sx={{ mt: 3 }} />
        <Divider sx={{ my: 3 }} />
        <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1.5 }}>
          {post.byMe ? (
            <OwnPostVotes upVote={post.upVote} downVote={post.downVote} />
          ) : (
            <VoteButtons postId={post._id} upVote={post.upVote} downVote={post.downVote} myVote={post.myVote} />
          )}
          <Button href="#comments" size="small" color="inherit" startIcon={<ChatBubbleOutline />} sx={{ color: 'text.secondary' }}>
            {post.commentCount} {post.commentCount === 1 ? 'comment' : 'comments'}
          </Button>
          <Box sx={{ flexGrow: 1 }} />
          {post.byMe && (
            <Button component={Link} to={editPostPath(post._id)} size="small" startIcon={<EditOutlined />}>
              Edit
            </Button>
          )}
          {status === 'authenticated' && !post.byMe && <ReportPost postId={post._id} reportedByMe={post.reportedByMe === true} />}
          {actions}
          <ShareMenu url={new URL(postPath(post._id), ownOrigin).href} title={post.title} />
        </Stack>
      </Paper>
      {children}
    </Box>
  );
}

function PostDetailsSkeleton() {
  return (
    <Paper variant="outlined" aria-busy="true" aria-label="Loading post" sx={{ p: { xs: 2.5, md: 4 } }}>
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 2.5 }}>
        <Skeleton variant="circular" width={48} height={48} />
        <Box sx={{ flex: 1 }}>
          <Skeleton width="25%" />
          <Skeleton width="15%" />
        </Box>
      </Stack>
      <Skeleton sx={{ fontSize: '2rem' }} width="60%" />
      <Skeleton width="100%" sx={{ mt: 3 }} />
      <Skeleton width="100%" />
      <Skeleton width="80%" />
    </Paper>
  );
}
