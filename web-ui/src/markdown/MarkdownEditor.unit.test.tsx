// @vitest-environment jsdom
import { COMMENT_RULE } from '@forum/contracts';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { CountedTextField } from '../CountedTextField.tsx';
import { MarkdownEditor } from './MarkdownEditor.tsx';
import { applyFormat } from './markdown-edits.ts';

afterEach(cleanup);

function Editor({ initial = '' }: { initial?: string }) {
  const [text, setText] = useState(initial);
  return (
    <MarkdownEditor label="Comment" value={text} onValueChange={setText}>
      <CountedTextField label="Comment" value={text} rule={COMMENT_RULE} onChange={(event) => setText(event.target.value)} multiline />
    </MarkdownEditor>
  );
}

const field = () => screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Comment' });

describe('the Markdown editor', () => {
  it('wraps the selection with the toolbar, by name, and keeps it selected', async () => {
    render(<Editor initial="make this loud" />);
    const toolbar = screen.getByRole('toolbar', { name: 'Comment: formatting' });
    field().setSelectionRange(10, 14);
    await userEvent.click(screen.getByRole('button', { name: 'Bold' }));
    expect(field().value).toBe('make this **loud**');
    expect(field().value.slice(field().selectionStart, field().selectionEnd)).toBe('loud');
    expect(toolbar.querySelectorAll('button')).toHaveLength(6);
  });

  it('answers Ctrl+B, Ctrl+I and Ctrl+K in the field, and the counter counts the source', async () => {
    render(<Editor />);
    await userEvent.click(field());
    await userEvent.keyboard('{Control>}b{/Control}');
    expect(field().value).toBe('**bold text**');
    await userEvent.keyboard('strong');
    expect(field().value).toBe('**strong**');
    await userEvent.keyboard('{End}{Control>}k{/Control}');
    expect(field().value).toBe('**strong**[link text](https://)');
    expect(field().value.slice(field().selectionStart, field().selectionEnd)).toBe('https://');
    await userEvent.keyboard('{Control>}i{/Control}');
    expect(field().value).toBe('**strong**[link text](_https://_)');
    expect(screen.getByText(`(${field().value.length} of ${COMMENT_RULE.max.toLocaleString('en-US')})`, { exact: false })).toBeTruthy();
  });

  it('previews the source rendered, and goes back to writing', async () => {
    render(<Editor initial={'# Title\n\nSome **bold**'} />);
    await userEvent.click(screen.getByRole('tab', { name: 'Preview' }));
    expect(await screen.findByRole('heading', { level: 3, name: 'Title' })).toBeTruthy();
    expect(screen.getByRole('tabpanel', { name: 'Preview' }).querySelector('strong')?.textContent).toBe('bold');
    expect(screen.queryByRole('toolbar')).toBeNull();
    await userEvent.click(screen.getByRole('tab', { name: 'Write' }));
    expect(field().value).toBe('# Title\n\nSome **bold**');
  });
});

describe('the formats', () => {
  it('code is a span on one line and a fenced block over several; a list and a quote prefix each selected line', () => {
    expect(applyFormat({ text: 'run npm test now', start: 4, end: 12 }, 'code').text).toBe('run `npm test` now');
    expect(applyFormat({ text: 'a\nb', start: 0, end: 3 }, 'code').text).toBe('```\na\nb\n```');
    expect(applyFormat({ text: 'intro\none\ntwo\nend', start: 7, end: 11 }, 'list').text).toBe('intro\n- one\n- two\nend');
    expect(applyFormat({ text: 'said so', start: 0, end: 0 }, 'quote').text).toBe('> said so');
  });
});
