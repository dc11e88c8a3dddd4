import { ADMIN_PAGE_SIZE } from '@forum/contracts';
import { Stack, Typography } from '@mui/material';
import { DataTable, List, SearchInput, useRecordContext } from 'react-admin';
import { useConsolePermissions } from '../../permissions';
import { RecordCards, usePhone } from '../../components/RecordCards';
import { EraseUserButton } from './EraseUserButton';
import { MakeAdminButton } from './MakeAdminButton';
import { DisciplineButtons, ModeratorButton } from './MemberActions';
import { MembershipField } from './MembershipField';
import { RoleField } from './RoleField';
import { SuspensionField } from './SuspensionField';
import type { UserRecord } from './types';
import { UserHistoryLink } from './UserHistoryLink';
import { UserPagination } from './UserPagination';

// GET /api/admin/users?filter={"q":…}: name or email (admins only) contains the text, ignoring case
const userFilters = [<SearchInput key="q" source="q" alwaysOn slotProps={{ htmlInput: { 'aria-label': 'Search users' } }} />];

/** Whether the caller may see members' emails (admins; a moderator's answer has none). */
const useMaySeeEmails = () => useConsolePermissions('manage-users').may('email');

const Column = DataTable.Col<UserRecord>;

/** The actions of a user's row or card. */
function UserActions() {
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
      <MakeAdminButton />
      <ModeratorButton />
      <DisciplineButtons />
      <UserHistoryLink />
      <EraseUserButton />
    </Stack>
  );
}

/** On a phone, a card per user: name, email (admins), role, membership and suspension, the actions. */
function UserCards() {
  return (
    <RecordCards<UserRecord> label={(user) => user.name} actions={<UserActions />}>
      <UserCardContent />
    </RecordCards>
  );
}

function UserCardContent() {
  const user = useRecordContext<UserRecord>();
  if (!user) return null;
  return (
    <>
      <Typography sx={{ fontWeight: 600 }}>{user.name}</Typography>
      {user.email && (
        <Typography variant="body2" color="text.secondary">
          {user.email}
        </Typography>
      )}
      <Stack direction="row" spacing={1.5} sx={{ mt: 1, alignItems: 'center' }}>
        <RoleField />
        <MembershipField />
      </Stack>
      <SuspensionField />
    </>
  );
}

/**
 * Spec §2 Manage Users (/admin/manage-users): search, the users 10 a page, 'Make Admin' (and
 * 'Delete', erasure); issue #43: the role, the suspension in force, Make/Revoke moderator (admins),
 * Warn, Suspend and Lift (staff). A moderator sees no emails and none of the admins' buttons
 * (permissions.ts). Cards on a phone.
 */
export function UserList() {
  const phone = usePhone();
  const emails = useMaySeeEmails();
  return (
    <List
      exporter={false}
      title="Manage Users"
      actions={false}
      filters={userFilters}
      perPage={ADMIN_PAGE_SIZE}
      sort={{ field: 'name', order: 'ASC' }}
      pagination={<UserPagination />}
    >
      {phone ? (
        <UserCards />
      ) : (
        <DataTable bulkActionButtons={false} rowClick={false}>
          <Column source="name" label="Name" />
          {emails && <Column source="email" label="Email" />}
          <Column source="role" label="Role">
            <RoleField />
          </Column>
          <Column source="isMember" label="Membership">
            <MembershipField />
          </Column>
          <Column source="suspension" label="Suspension" disableSort>
            <SuspensionField />
          </Column>
          <Column label="Actions" disableSort>
            <UserActions />
          </Column>
        </DataTable>
      )}
    </List>
  );
}
