export { Member, member, visitor, withAuthorization, type RouteRequest } from './callers.ts';
export { accountDisabled, aModerator, anAdmin, registered, tagCreated, warned } from './facts.ts';
export { aPosition, anError, anId, commandApiSpec, type CommandApiSpec, type Outcome } from './route-spec.ts';
export { hostileText } from './hostile-text.ts';
