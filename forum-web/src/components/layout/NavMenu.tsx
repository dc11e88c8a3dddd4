import { Menu, MenuItem } from '@mui/material';
import { Link, useLocation } from 'react-router-dom';
import type { NavLinkSpec } from './nav-links';

/** The bar's links as a menu on narrow screens (its own chunk: most visits never open it). */
export default function NavMenu({
  id,
  anchor,
  links,
  onClose,
}: {
  id: string;
  anchor: HTMLElement | null;
  links: readonly NavLinkSpec[];
  onClose: () => void;
}) {
  const { pathname } = useLocation();
  // the page you are on, as the wide bar shows it
  const current = (to: string) => (to === '/' ? pathname === '/' : pathname === to || pathname.startsWith(`${to}/`));
  return (
    <Menu id={id} anchorEl={anchor} open={anchor !== null} onClose={onClose}>
      {links.map((link) =>
        link.external ? (
          <MenuItem key={link.to} component="a" href={link.to} onClick={onClose}>
            {link.label}
          </MenuItem>
        ) : (
          <MenuItem
            key={link.to}
            component={Link}
            to={link.to}
            onClick={onClose}
            selected={current(link.to)}
            aria-current={current(link.to) ? 'page' : undefined}
          >
            {link.label}
          </MenuItem>
        ),
      )}
    </Menu>
  );
}
