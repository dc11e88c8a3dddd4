import type { AuditEntry } from '@forum/contracts';
import { Chip, Stack, Typography } from '@mui/material';
import { Link, useRecordContext } from 'react-admin';
import { HistoryLink, isUserId, useHistoryPath } from '../history/HistoryLink';
import { AUDIT_TYPE_LABELS } from './auditTypes';

export type AuditRecord = AuditEntry & { id: string };

/** Who acted: their name (to their own history) and email; the system or an operator as its id. */
export function ActorField() {
  const entry = useRecordContext<AuditRecord>();
  const historyPath = useHistoryPath();
  if (!entry) return null;
  const { id, name, email } = entry.actor;
  return (
    <Stack sx={{ minWidth: 140 }}>
      {isUserId(id) ? (
        <Link to={historyPath('user', id)} variant="body2" sx={{ fontWeight: 500 }}>
          {name}
        </Link>
      ) : (
        <Typography variant="body2">{name}</Typography>
      )}
      {email && (
        <Typography variant="caption" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          {email}
        </Typography>
      )}
    </Stack>
  );
}

/** The action's kind, as a chip. */
export function AuditTypeField() {
  const entry = useRecordContext<AuditRecord>();
  if (!entry) return null;
  return <Chip size="small" variant="outlined" label={AUDIT_TYPE_LABELS[entry.type] ?? entry.type} />;
}

/** What it acted on: its kind and id, and its history where it has one (a user or a post). */
export function TargetField() {
  const entry = useRecordContext<AuditRecord>();
  if (!entry) return null;
  const { type, id } = entry.target;
  return (
    <Stack spacing={0.25} sx={{ minWidth: 120 }}>
      <Typography variant="body2">
        {type}{' '}
        <Typography component="span" variant="body2" title={id} sx={{ fontFamily: 'monospace', color: 'text.secondary' }}>
          {id.length > 12 ? `${id.slice(0, 8)}…` : id}
        </Typography>
      </Typography>
      {(type === 'user' || type === 'post') && <HistoryLink kind={type} id={id} />}
    </Stack>
  );
}
