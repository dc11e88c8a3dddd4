import { Box, Container, Link, Stack, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';

const links = [
  { to: '/', label: 'Home' },
  { to: '/membership', label: 'Membership' },
  { to: '/contact', label: 'Contact' },
  { to: '/about', label: 'About' },
] as const;

export function Footer() {
  return (
    <Box component="footer" sx={{ mt: 'auto', bgcolor: 'grey.900', color: 'grey.300', py: 4 }}>
      <Container maxWidth="lg">
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' } }}>
          <Box>
            <Typography variant="h6" component="p" sx={{ color: 'common.white', fontWeight: 800 }}>
              Forum
            </Typography>
            <Typography variant="body2">A place to ask, share and learn together.</Typography>
          </Box>
          <Stack component="nav" aria-label="Footer" direction="row" spacing={3} useFlexGap sx={{ flexWrap: 'wrap' }}>
            {links.map((link) => (
              <Link key={link.to} component={RouterLink} to={link.to} color="inherit" underline="hover">
                {link.label}
              </Link>
            ))}
          </Stack>
        </Stack>
        <Typography variant="caption" component="p" sx={{ mt: 3, color: 'grey.500' }}>
          © {new Date().getFullYear()} Forum
        </Typography>
      </Container>
    </Box>
  );
}
