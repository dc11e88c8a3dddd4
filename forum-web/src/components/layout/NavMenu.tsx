import { Menu, MenuItem } from '@mui/material';
import { Link } from 'react-router-dom';
import type { NavLinkSpec } from './NavBar';

/** The bar's links as a menu on narrow screens (its own chunk: most visits never open it). */
export default function NavMenu({ id, anchor, links, onClose }: { id: string; anchor: HTMLElement | null; links: readonly NavLinkSpec[]; onClose: () => void }) {
  return (
    <Menu id={id} anchorEl={anchor} open={anchor !== null} onClose={onClose}>
      {links.map((link) =>
        link.external ? (
          <MenuItem key={link.to} component="a" href={link.to} onClick={onClose}>
            {link.label}
          </MenuItem>
        ) : (
          <MenuItem key={link.to} component={Link} to={link.to} onClick={onClose}>
            {link.label}
          </MenuItem>
        ),
      )}
    </Menu>
  );
}
