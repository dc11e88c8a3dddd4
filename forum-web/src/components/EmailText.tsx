import { sxList } from '@forum/web-ui';
import { Box, Typography, type TypographyProps } from '@mui/material';
import { Fragment } from 'react';

/**
 * An email address that wraps only before its '@', never inside its name or its domain (a break
 * after a hyphen would read as hyphenation, one anywhere else as two words). A part wider than the
 * whole box is cut with '…' rather than broken; the address is the title.
 */
export function EmailText({ email, sx, ...props }: { email: string } & Omit<TypographyProps, 'children' | 'title'>) {
  const at = email.lastIndexOf('@');
  const parts = at > 0 ? [email.slice(0, at), email.slice(at)] : [email];
  return (
    <Typography title={email} {...props} sx={[{ overflow: 'hidden', textOverflow: 'ellipsis' }, ...sxList(sx)]}>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 && <wbr />}
          <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
            {part}
          </Box>
        </Fragment>
      ))}
    </Typography>
  );
}
