import { ADMIN_PAGE_SIZE } from '@forum/contracts';
import { Stack, Typography } from '@mui/material';
import { DataTable, List, SearchInput, useRecordContext } from 'react-admin';
import { RecordCards, usePhone } from '../../components/RecordCards';
import { EraseUserButton } from './EraseUserButton';
import { MakeAdminButton } from './MakeAdminButton';
import { MembershipField } from './MembershipField';
import { RoleField } from './RoleField';
import type { UserRecord } from './types';
import { UserHistoryLink } from './UserHistoryLink';
import { UserPagination } from './UserPagination';

// GET /api/admin/users?filter={"q":…}: name or email contains the text, ignoring case
const userFilters = [<SearchInput key="q" source="q" alwaysOn slotProps={{ htmlInput: { 'aria-label': 'Search users' } }} />];

const Column = DataTable.Col<UserRecord>;

/** The actions of a user's row or card. */
function UserActions() {
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
      <MakeAdminButton />
      <UserHistoryLink />
      <EraseUserButton />
    </Stack>
  );
}

/** On a phone, a card per user: name, email, role and membership, the actions. */
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
      <Typography variant="body2" color="text.secondary">
        {user.email}
      </Typography>
      <Stack direction="row" spacing={1.5} sx={{ mt: 1, alignItems: 'center' }}>
        <RoleField />
        <MembershipField />
      </Stack>
    </>
  );
}

/** Spec §2 Manage Users (/admin/manage-users): search, the users 10 a page, 'Make Admin' (and 'Delete', erasure); cards on a phone. */
export function UserList() {
  const phone = usePhone();
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
          <Column source="email" label="Email" />
          <Column source="role" label="Role">
            <RoleField />
          </Column>
          <Column source="isMember" label="Membership">
            <MembershipField />
          </Column>
          <Column label="Actions" disableSort>
            <UserActions />
          </Column>
        </DataTable>
      )}
    </List>
  );
}
