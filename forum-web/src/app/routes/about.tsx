import { FREE_POST_LIMIT } from '@forum/contracts';
import { Paper, Stack, Typography } from '@mui/material';

export function AboutPage() {
  return (
    <Paper variant="outlined" sx={{ p: { xs: 3, md: 5 } }}>
      <title>About · Forum</title>
      <Stack spacing={2}>
        <Typography variant="h4" component="h1" sx={{ fontWeight: 800 }}>
          About the Forum
        </Typography>
        <Typography>
          Welcome! This is a community forum where people ask questions, share what they know and help each other. Anyone can read posts and browse them by tag;
          members of the community write posts, comment and vote.
        </Typography>
        <Typography>Every account may publish up to {FREE_POST_LIMIT} posts for free. Gold members, who upgrade once, can post without limit.</Typography>
        <Typography>Be kind, stay on topic, and report comments that break the rules: moderators review every report.</Typography>
      </Stack>
    </Paper>
  );
}
