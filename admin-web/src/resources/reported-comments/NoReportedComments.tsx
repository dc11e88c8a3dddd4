import TaskAltOutlined from '@mui/icons-material/TaskAltOutlined';
import { Box, Typography } from '@mui/material';

/** Spec §2 Reported Comments, nothing reported. */
export function NoReportedComments() {
  return (
    <Box sx={{ textAlign: 'center', py: 8, px: 2, width: '100%' }}>
      <TaskAltOutlined color="success" sx={{ fontSize: 64, mb: 1 }} aria-hidden />
      <Typography variant="h6" component="p">
        No reported comments found
      </Typography>
      <Typography variant="body2" color="text.secondary">
        When users report comments, they will appear here
      </Typography>
    </Box>
  );
}
