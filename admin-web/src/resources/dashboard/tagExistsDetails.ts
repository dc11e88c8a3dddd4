// Manage Tags' refusal of a taken name, read with contracts' schema: a module of its own, which
// AddTagForm loads when that refusal comes (the schema brings zod, which the dashboard does not need).
export { TagExistsDetails } from '@forum/contracts';
