import type { SuspensionDetails } from '@forum/contracts';
import { asSentence, formatDateTime } from './format';

/** Until when a suspension lasts, in the reader's locale ("until 2 Dec 2026, 14:00"), or until staff lift it. */
export const suspensionEnd = (until: string | null) => (until === null ? 'until a moderator lifts it' : `until ${formatDateTime(until)}`);

/**
 * What a suspended member is told, on the banner of every page and where a write was refused:
 * "Your account is suspended until 2 Dec 2026, 14:00: <reason>. You can still read the forum."
 */
export const suspensionText = ({ reason, until }: SuspensionDetails) =>
  `Your account is suspended ${suspensionEnd(until)}: ${asSentence(reason)} You can still read the forum.`;
