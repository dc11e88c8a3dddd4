import { Box } from '@mui/material';
import { createElement, useEffect, useState, type ReactNode } from 'react';
import type { Run } from './highlight.ts';

function render(runs: readonly (Run | string)[]): ReactNode[] {
  return runs.map((run, key) =>
    typeof run === 'string' ? run : createElement('span', { key, className: run.classes.join(' ') || undefined }, render(run.children)),
  );
}

/**
 * A fenced or indented code block: its code as text at once, then highlighted when the
 * highlighter's chunk has loaded (the first code block a page shows loads it).
 */
export function CodeBlock({ code, language }: { code: string; language: string }) {
  // the runs of the code they were made of: a block whose code changed shows it plain until highlighted again
  const [highlighted, setHighlighted] = useState<{ code: string; language: string; runs: (Run | string)[] | null } | null>(null);
  useEffect(() => {
    let current = true;
    void import('./highlight.ts').then(({ highlight }) => {
      if (current) setHighlighted({ code, language, runs: highlight(code, language) });
    });
    return () => {
      current = false;
    };
  }, [code, language]);
  const runs = highlighted?.code === code && highlighted.language === language ? highlighted.runs : null;
  return (
    <Box component="pre" tabIndex={0} role="group" aria-label={language ? `Code (${language})` : 'Code'} data-highlighted={runs ? 'true' : undefined}>
      <code>{runs ? render(runs) : code}</code>
    </Box>
  );
}
