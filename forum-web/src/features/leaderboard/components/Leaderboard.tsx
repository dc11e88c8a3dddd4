import { ANONYMOUS_NAME, LEADERBOARD_SIZE } from '@forum/contracts';
import EmojiEvents from '@mui/icons-material/EmojiEvents';
import { Avatar, Box, List, ListItem, ListItemAvatar, ListItemText, Paper, Skeleton, Stack, Typography } from '@mui/material';
import { useEffect } from 'react';
import { PersonAvatar } from '@forum/web-ui';
import { AuthorName } from '../../../components/AuthorName';
import { useGetTopVotedQuery } from '../api/get-top-voted';

const MEDALS = ['#D4AF37', '#A8A9AD', '#CD7F32'];

/** Spec §2 Leaderboard: the top-voted users in order, each with a name (the link to their public profile) and '{n} votes'. */
export function Leaderboard() {
  const { data: users = [], error, isLoading } = useGetTopVotedQuery();

  useEffect(() => {
    if (error) console.error('Loading the leaderboard failed', error);
  }, [error]);

  return (
    <Box>
      <title>Leaderboard · Forum</title>
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 1 }}>
        <EmojiEvents sx={{ color: MEDALS[0], fontSize: 36 }} aria-hidden />
        <Typography variant="h4" component="h1" sx={{ fontWeight: 800, fontSize: { xs: '1.75rem', sm: '2.125rem' } }}>
          Leaderboard
        </Typography>
      </Stack>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        The top {LEADERBOARD_SIZE} members by the up votes their posts received.
      </Typography>
      <Paper variant="outlined">
        {isLoading ? (
          <Stack spacing={2} sx={{ p: 2.5 }} aria-busy="true" aria-label="Loading the leaderboard">
            {[0, 1, 2].map((i) => (
              <Stack key={i} direction="row" spacing={2} sx={{ alignItems: 'center' }}>
                <Skeleton variant="circular" width={32} height={32} />
                <Skeleton variant="circular" width={40} height={40} />
                <Skeleton width="40%" />
              </Stack>
            ))}
          </Stack>
        ) : users.length === 0 ? (
          <Typography color="text.secondary" sx={{ py: 6, textAlign: 'center' }}>
            No users found.
          </Typography>
        ) : (
          <List component="ol" aria-label="Top-voted users" sx={{ py: 0 }}>
            {users.map((user, index) => {
              const name = user.name.trim() || ANONYMOUS_NAME;
              return (
                <ListItem key={user._id} divider={index < users.length - 1} sx={{ py: 1.5, gap: 1.5 }}>
                  <Avatar
                    aria-hidden
                    sx={{
                      width: 32,
                      height: 32,
                      fontSize: 14,
                      fontWeight: 700,
                      bgcolor: MEDALS[index] ?? 'grey.200',
                      color: index < 3 ? 'common.white' : 'text.primary',
                    }}
                  >
                    {index + 1}
                  </Avatar>
                  <ListItemAvatar sx={{ minWidth: 0 }}>
                    <PersonAvatar name={name} photo={user.photoURL} />
                  </ListItemAvatar>
                  <ListItemText
                    primary={<AuthorName name={name} authorId={user.hasProfile ? user._id : null} sx={{ fontWeight: 600, overflowWrap: 'anywhere' }} />}
                    slotProps={{ primary: { component: 'div' } }}
                  />
                  <Typography sx={{ fontWeight: 700, color: 'primary.main', whiteSpace: 'nowrap' }}>{`${user.totalVote} votes`}</Typography>
                </ListItem>
              );
            })}
          </List>
        )}
      </Paper>
    </Box>
  );
}
