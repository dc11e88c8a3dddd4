import FlagOutlined from '@mui/icons-material/FlagOutlined';
import { Box, Button, Card, CardActions, CardContent, Typography } from '@mui/material';
import { Link, useBasename, useGetIdentity } from 'react-admin';
import { PageTitle } from '../../layout/PageTitle';

/** A moderator's first page of the console: who they are and the way to the queue. */
export function ModeratorHome() {
  const basename = useBasename();
  const { identity } = useGetIdentity();
  return (
    <Box sx={{ py: 2 }}>
      <PageTitle title="Moderator" />
      <Card sx={{ maxWidth: 640 }}>
        <CardContent>
          <Typography variant="h5" component="h1" sx={{ fontWeight: 700 }}>
            Welcome{identity?.fullName ? `, ${identity.fullName}` : ''}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            As a moderator you review what members report, hide, lock and pin posts, and warn or suspend members. Each action is kept in the staff log with your
            name and reason.
          </Typography>
        </CardContent>
        <CardActions sx={{ px: 2, pb: 2 }}>
          <Button component={Link} to={`${basename}/reports`} variant="contained" startIcon={<FlagOutlined />}>
            Open the reports
          </Button>
        </CardActions>
      </Card>
    </Box>
  );
}
