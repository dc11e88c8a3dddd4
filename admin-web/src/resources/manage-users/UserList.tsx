import { ADMIN_PAGE_SIZE } from '@forum/contracts';
import { Stack } from '@mui/material';
import { DataTable, List, SearchInput } from 'react-admin';
import { MakeAdminButton } from './MakeAdminButton';
import { MembershipField } from './MembershipField';
import { RoleField } from './RoleField';
import type { UserRecord } from './types';
import { UserHistoryLink } from './UserHistoryLink';
import { UserPagination } from './UserPagination';

// GET /api/admin/users?filter={"q":…}: name or email contains the text, ignoring case
const userFilters = [<SearchInput key="q" source="q" alwaysOn slotProps={{ htmlInput: { 'aria-label': 'Search users' } }} />];

const Column = DataTable.Col<UserRecord>;

/** Spec §2 Manage Users (/admin/manage-users): search, the users 10 a page, 'Make Admin'. */
export function UserList() {
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
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <MakeAdminButton />
            <UserHistoryLink />
          </Stack>
        </Column>
      </DataTable>
    </List>
  );
}
