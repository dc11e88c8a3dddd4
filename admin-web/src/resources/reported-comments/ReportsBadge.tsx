import { Chip } from '@mui/material';
import { useListContext } from 'react-admin';

/** Spec §2 Reported Comments badge 'N reports': every open report, several of one comment counted each. */
export function ReportsBadge() {
  const { total } = useListContext();
  if (total === undefined) return null;
  return <Chip color="error" label={`${total} ${total === 1 ? 'report' : 'reports'}`} />;
}
