import MilitaryTech from '@mui/icons-material/MilitaryTech';
import WorkspacePremium from '@mui/icons-material/WorkspacePremium';
import type { BADGES } from '@forum/contracts';
import { Chip } from '@mui/material';
import { GOLD, GOLD_PALE, GOLD_TEXT } from './gold';

/** A member's badge (spec §2 My Profile): Gold for a paying member, else Bronze Member. */
export function MemberBadge({ badge }: { badge: (typeof BADGES)[number] }) {
  return badge === 'Gold' ? (
    <Chip icon={<WorkspacePremium />} label="Gold" sx={{ bgcolor: GOLD_PALE, color: GOLD_TEXT, fontWeight: 700, '& .MuiChip-icon': { color: GOLD } }} />
  ) : (
    <Chip
      icon={<MilitaryTech />}
      label="Bronze Member"
      sx={{ bgcolor: '#f6ebe2', color: '#7a4a24', fontWeight: 700, '& .MuiChip-icon': { color: '#b06d3b' } }}
    />
  );
}
