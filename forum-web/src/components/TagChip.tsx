import { tagPagePath } from '@forum/contracts';
import { sxList } from '@forum/web-ui';
import { Chip, Stack, type ChipProps, type SxProps, type Theme } from '@mui/material';
import { Link } from 'react-router-dom';

/** A tag's page in forum-web: contracts' tagPagePath, the address the sitemap and feeds name too. */
export const tagPath = tagPagePath;

interface TagChipProps {
  tag: string;
  size?: ChipProps['size'];
  /** -1 for copies that only exist for a visual effect. */
  tabIndex?: number;
}

/** A tag written '#tag' that goes to the posts with that tag. */
export function TagChip({ tag, size = 'small', tabIndex }: TagChipProps) {
  return (
    <Chip
      component={Link}
      to={tagPath(tag)}
      clickable
      label={`#${tag}`}
      size={size}
      color="primary"
      variant="outlined"
      tabIndex={tabIndex}
      sx={{ bgcolor: 'background.paper' }}
    />
  );
}

/** A post's tags as a list of chips (spec §2: each to its tag page); none, nothing. */
export function TagList({ tags, sx }: { tags: readonly string[]; sx?: SxProps<Theme> }) {
  if (tags.length === 0) return null;
  return (
    <Stack component="ul" aria-label="Tags" direction="row" sx={[{ flexWrap: 'wrap', gap: 1, listStyle: 'none', p: 0, m: 0 }, ...sxList(sx)]}>
      {tags.map((tag) => (
        <li key={tag}>
          <TagChip tag={tag} />
        </li>
      ))}
    </Stack>
  );
}
