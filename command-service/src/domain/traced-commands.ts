import { inSpan } from '@forum/platform';
import type { Attributes } from '@opentelemetry/api';
import { DomainError } from './errors.ts';

type Commands = Readonly<Record<string, (...args: never[]) => Promise<unknown>>>;

/**
 * The forum's commands, each inside a span of its own (docs/operations.md#traces): `command <name>`,
 * with what came of it: appended (and the position), unchanged, replayed (an Idempotency-Key used
 * before) or refused (the domain error's code). The events a command appends carry its span in their
 * metadata (command-handler's appendsOf), so what projects them joins its trace.
 */
export function tracedCommands<C extends Commands>(commands: C): C {
  return Object.fromEntries(
    Object.entries(commands).map(([name, command]) => [
      name,
      (...args: never[]) =>
        inSpan(
          `command ${name}`,
          {
            attributes: () => ({ 'forum.command.type': name }),
            refusal: (error) => (error instanceof DomainError ? error.code : undefined),
          },
          async (span) => {
            try {
              const result = await command(...args);
              if (span.isRecording()) span.setAttributes(outcomeOf(result));
              return result;
            } catch (error) {
              if (error instanceof DomainError && span.isRecording()) span.setAttribute('forum.command.outcome', 'refused');
              throw error;
            }
          },
        ),
    ]),
  ) as C;
}

/** What came of a command, from its answer (Executed: an answer with a position or none, maybe replayed). */
function outcomeOf(result: unknown): Attributes {
  const { duplicate, answer } = (result ?? {}) as { duplicate?: unknown; answer?: { position?: unknown } };
  if (duplicate === true) return { 'forum.command.outcome': 'replayed' };
  const position = answer?.position;
  return typeof position === 'string' ? { 'forum.command.outcome': 'appended', 'forum.event.position': position } : { 'forum.command.outcome': 'unchanged' };
}
