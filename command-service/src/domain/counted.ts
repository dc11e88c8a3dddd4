import type { Metrics } from '@forum/platform';

/**
 * The commands, each counted into forum_commands_total by its name and outcome: `accepted`,
 * `replayed` (an Idempotency-Key's first answer sent again) or the refusal's error code (a domain
 * error's, a write limit's RATE_LIMITED, a conflict's); `error` for a failure without a code. An
 * answer that is not a command's (a read such as isAdmin) is not counted.
 */
export function countedCommands<Commands extends object>(commands: Commands, metrics: Metrics): Commands {
  const counted = Object.entries(commands as Record<string, unknown>).map(([command, run]) => {
    if (typeof run !== 'function') return [command, run];
    const wrapped = async (...args: unknown[]) => {
      try {
        const answer: unknown = await (run as (...args: unknown[]) => Promise<unknown>)(...args);
        if (isExecuted(answer)) metrics.commands.inc({ command, outcome: answer.duplicate ? 'replayed' : 'accepted' });
        return answer;
      } catch (error) {
        const code = (error as { code?: unknown } | null)?.code;
        metrics.commands.inc({ command, outcome: typeof code === 'string' ? code : 'error' });
        throw error;
      }
    };
    return [command, wrapped];
  });
  return Object.fromEntries(counted) as Commands;
}

/** A command handler's answer (execute.ts's Executed). */
const isExecuted = (answer: unknown): answer is { duplicate: boolean } =>
  typeof answer === 'object' && answer !== null && 'answer' in answer && typeof (answer as { duplicate?: unknown }).duplicate === 'boolean';
