import { BRAND } from '@forum/contracts';
import { Avatar, type SxProps, type Theme } from '@mui/material';
import { sxList } from './sx.ts';

export interface PersonAvatarProps {
  /** whose: its first letter stands in for a photo that is missing or fails to load */
  name: string;
  /** the photo's address; '' or none: the letter */
  photo?: string;
  /** width and height in px */
  size?: number;
  /** the photo's text, where the photo says something the page does not (else it is decorative) */
  alt?: string;
  sx?: SxProps<Theme>;
}

/** What stands for a name without a letter in it. */
const initialOf = (name: string) => Array.from(name.trim())[0]?.toUpperCase() ?? '?';

/**
 * A person's photo, or the first letter of their name when there is none or it fails to load: the
 * one fallback both apps show, white on the brand's teal (5.3:1, WCAG AA for text of any size).
 * Decorative unless given `alt`: the name is written next to it, or names the control it is in. The
 * letter is never read out.
 */
export function PersonAvatar({ name, photo, size = 40, alt, sx }: PersonAvatarProps) {
  return (
    <Avatar
      aria-hidden={alt ? undefined : true}
      alt={alt ?? ''}
      src={photo || undefined}
      slotProps={{ img: { referrerPolicy: 'no-referrer', loading: 'lazy' } }}
      sx={[{ width: size, height: size, fontSize: size * 0.45, fontWeight: 600, color: '#fff', bgcolor: BRAND.secondary }, ...sxList(sx)]}
    >
      <span aria-hidden>{initialOf(name)}</span>
    </Avatar>
  );
}
