export { Caller, Member, member, visitor, withAuthorization, type RouteRequest } from './callers.ts';
export { accountDisabled, anAdmin, madeAdmin, registered, tagCreated, warned, type Fact } from './facts.ts';
export { aPosition, anError, anId, commandApiSpec, type Act, type Answer, type AnswersOf, type AppendedEvent, type CommandApiOptions, type CommandApiSpec, type ExpectedEvent, type Happened, type Outcome } from './route-spec.ts';
export { hostileText } from './hostile-text.ts';
