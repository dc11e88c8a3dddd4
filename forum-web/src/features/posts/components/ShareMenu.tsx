import Facebook from '@mui/icons-material/Facebook';
import Share from '@mui/icons-material/Share';
import WhatsApp from '@mui/icons-material/WhatsApp';
import { Button, ListItemIcon, ListItemText, Menu, MenuItem } from '@mui/material';
import { useId, useState } from 'react';

/** The share dialogs of spec §2, on the networks' own sites. */
export function shareLinks(url: string, title: string) {
  return {
    facebook: `https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(url)}`,
    whatsapp: `https://wa.me/?text=${encodeURIComponent(`${title} ${url}`)}`,
  };
}

/** 'Share' opens a menu of share links; each opens in a new window that cannot reach back into this page. */
export function ShareMenu({ url, title }: { url: string; title: string }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const buttonId = useId();
  const menuId = useId();
  const links = shareLinks(url, title);
  const close = () => setAnchor(null);

  return (
    <>
      <Button
        id={buttonId}
        size="small"
        startIcon={<Share />}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        Share
      </Button>
      <Menu id={menuId} anchorEl={anchor} open={anchor !== null} onClose={close} slotProps={{ list: { 'aria-labelledby': buttonId } }}>
        <MenuItem component="a" href={links.facebook} target="_blank" rel="noopener noreferrer" onClick={close}>
          <ListItemIcon>
            <Facebook fontSize="small" sx={{ color: '#1877F2' }} />
          </ListItemIcon>
          <ListItemText>Share on Facebook</ListItemText>
        </MenuItem>
        <MenuItem component="a" href={links.whatsapp} target="_blank" rel="noopener noreferrer" onClick={close}>
          <ListItemIcon>
            <WhatsApp fontSize="small" sx={{ color: '#25D366' }} />
          </ListItemIcon>
          <ListItemText>Share on WhatsApp</ListItemText>
        </MenuItem>
      </Menu>
    </>
  );
}
