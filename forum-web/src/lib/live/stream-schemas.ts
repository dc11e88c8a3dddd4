/**
 * The contract's schemas of the change stream, which the live client checks every message and
 * ticket with. They are zod: only ./live-connection.ts imports them, which loads when the first
 * stream opens (see ../contract-schemas.ts for why zod stays out of the home page's first load).
 */
export { StreamMessages, StreamTicket } from '@forum/contracts';
