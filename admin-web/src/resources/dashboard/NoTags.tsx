import LocalOfferOutlined from '@mui/icons-material/LocalOfferOutlined';
import { Box, Typography } from '@mui/material';

/** Spec §2 Manage Tags, no tags yet. */
export function NoTags() {
  return (
    <Box sx={{ textAlign: 'center', py: 4 }}>
      <LocalOfferOutlined color="disabled" sx={{ fontSize: 48, mb: 1 }} aria-hidden />
      <Typography color="text.secondary">No tags found. Add your first tag!</Typography>
    </Box>
  );
}
