import { ADMIN_PAGE_SIZE } from '@forum/contracts';
import { Pagination, useListContext } from 'react-admin';

/**
 * The console's pager: react-admin's, with the admin page sizes, and none while the list's read
 * has failed. Then react-admin knows no total and would count the page itself ('1-10 of 10')
 * beside a list that shows nothing.
 */
export function ListPagination() {
  const { error } = useListContext();
  if (error) return null;
  return <Pagination rowsPerPageOptions={[ADMIN_PAGE_SIZE, 25, 50]} />;
}
