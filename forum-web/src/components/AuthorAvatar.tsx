import { Avatar } from '@mui/material';

interface AuthorAvatarProps {
  name: string;
  photo: string;
  size?: number;
}

/**
 * The author's photo, or their initial when there is none or it fails to load.
 * Decorative: the name is always written next to it.
 */
export function AuthorAvatar({ name, photo, size = 40 }: AuthorAvatarProps) {
  return (
    <Avatar
      aria-hidden
      alt=""
      src={photo || undefined}
      slotProps={{ img: { referrerPolicy: 'no-referrer', loading: 'lazy' } }}
      sx={{ width: size, height: size, bgcolor: 'secondary.main', fontSize: size * 0.45 }}
    >
      {name.trim().charAt(0).toUpperCase() || '?'}
    </Avatar>
  );
}
