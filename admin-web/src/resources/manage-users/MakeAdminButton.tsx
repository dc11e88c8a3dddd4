import AdminPanelSettingsOutlined from '@mui/icons-material/AdminPanelSettingsOutlined';
import { Button } from '@mui/material';
import { useState } from 'react';
import { Confirm, useDataProvider, useNotify, useRecordContext, useRefresh } from 'react-admin';
import { ADMIN_ROLE } from '../../authProvider';
import type { ForumDataProvider } from '../../dataProvider';
import type { UserRecord } from './types';

/**
 * Spec §2/§8 'Make Admin' (none for admins: there is no demotion, spec §4): confirmed first,
 * pessimistic (the read side is eventually consistent), then the list is read again at the
 * command's position.
 */
export function MakeAdminButton() {
  const user = useRecordContext<UserRecord>();
  const dataProvider = useDataProvider<ForumDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  if (!user || user.role === ADMIN_ROLE) return null;

  const makeAdmin = async () => {
    setPending(true);
    try {
      await dataProvider.makeAdmin(String(user.id));
      notify('User role updated to admin', { type: 'success' });
      refresh();
    } catch {
      notify('Failed to update user role', { type: 'error' });
    } finally {
      setPending(false);
      setOpen(false);
    }
  };

  return (
    <>
      <Button size="small" variant="outlined" startIcon={<AdminPanelSettingsOutlined />} disabled={pending} onClick={() => setOpen(true)}>
        Make Admin
      </Button>
      <Confirm
        isOpen={open}
        loading={pending}
        title="Are you sure?"
        content="This user will become an admin"
        confirm="Yes, make admin"
        onConfirm={() => void makeAdmin()}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
