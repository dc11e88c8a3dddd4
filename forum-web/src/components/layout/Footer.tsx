import EmailOutlined from '@mui/icons-material/EmailOutlined';
import Facebook from '@mui/icons-material/Facebook';
import GitHub from '@mui/icons-material/GitHub';
import X from '@mui/icons-material/X';
import { Box, Container, IconButton, Link, Stack, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import { FOCUS_RING_COLOR } from '../../lib/focus-ring';

const links = [
  { to: '/', label: 'Home' },
  { to: '/membership', label: 'Membership' },
  { to: '/contact', label: 'Contact' },
  { to: '/about', label: 'About' },
] as const;

const social = [
  { href: 'https://www.facebook.com/', label: 'Facebook', Icon: Facebook },
  { href: 'https://x.com/', label: 'X', Icon: X },
  { href: 'https://github.com/', label: 'GitHub', Icon: GitHub },
] as const;

/** Spec §2 Shell: contact details, the four links and social links. */
export function Footer() {
  return (
    <Box component="footer" sx={{ mt: 'auto', bgcolor: 'grey.900', color: 'grey.300', py: 4, [FOCUS_RING_COLOR]: '#fff' }}>
      <Container maxWidth="lg">
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={3} sx={{ justifyContent: 'space-between', alignItems: { md: 'flex-start' } }}>
          <Box>
            <Typography variant="h6" component="p" sx={{ color: 'common.white', fontWeight: 800 }}>
              Forum
            </Typography>
            <Typography variant="body2">A place to ask, share and learn together.</Typography>
          </Box>
          <Box component="address" sx={{ fontStyle: 'normal' }}>
            <Typography variant="subtitle2" component="p" sx={{ color: 'common.white', fontWeight: 700 }}>
              Get in touch
            </Typography>
            <Link
              component={RouterLink}
              to="/contact"
              color="inherit"
              underline="hover"
              variant="body2"
              sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.75 }}
            >
              <EmailOutlined fontSize="small" aria-hidden />
              Write to the team: we answer by email
            </Link>
          </Box>
          <Stack component="nav" aria-label="Footer" direction="row" spacing={3} useFlexGap sx={{ flexWrap: 'wrap' }}>
            {links.map((link) => (
              <Link key={link.to} component={RouterLink} to={link.to} color="inherit" underline="hover">
                {link.label}
              </Link>
            ))}
          </Stack>
        </Stack>
        <Stack direction="row" sx={{ mt: 3, alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1 }}>
          <Typography variant="caption" component="p" sx={{ color: 'grey.500' }}>
            © {new Date().getFullYear()} Forum
          </Typography>
          <Stack component="ul" aria-label="Follow us" direction="row" spacing={0.5} sx={{ listStyle: 'none', m: 0, p: 0 }}>
            {social.map(({ href, label, Icon }) => (
              <li key={label}>
                <IconButton
                  component="a"
                  href={href}
                  target="_blank"
                  rel="noopener noreferrer"
                  aria-label={`Forum on ${label} (opens in a new tab)`}
                  size="small"
                  sx={{ color: 'grey.400' }}
                >
                  <Icon fontSize="small" />
                </IconButton>
              </li>
            ))}
          </Stack>
        </Stack>
      </Container>
    </Box>
  );
}
