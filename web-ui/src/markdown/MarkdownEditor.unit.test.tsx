// @vitest-environment jsdom
import { COMMENT_RULE } from '@forum/contracts';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { CountedTextField } from '../CountedTextField.tsx';
import { MarkdownEditor } from './MarkdownEditor.tsx';
import { applyFormat } from './markdown-edits.ts';
import { mentionAt, SUGGEST_DEBOUNCE_MS, type MentionSuggestion, type SuggestMentions } from './MentionSuggestions.tsx';

afterEach(cleanup);

function Editor({ initial = '', suggest }: { initial?: string; suggest?: SuggestMentions }) {
  const [text, setText] = useState(initial);
  return (
    <MarkdownEditor label="Comment" value={text} onValueChange={setText} suggest={suggest}>
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

describe("#42 the editor's @ autocomplete", () => {
  const ALICE_PHOTO = 'https://images.example.com/alice.png';
  const MEMBERS: MentionSuggestion[] = [
    { _id: 'u-1', handle: 'alice', name: 'Alice Martin', photoURL: ALICE_PHOTO },
    { _id: 'u-2', handle: 'alina_k', name: 'Alina K', photoURL: '' },
    { _id: 'u-3', handle: 'bob.chen', name: 'Bob Chen', photoURL: '' },
  ];
  /** The app's suggest: the members whose handle starts with the prefix; every prefix asked is kept. */
  function members() {
    const asked: string[] = [];
    const suggest: SuggestMentions = (prefix) => {
      asked.push(prefix);
      return Promise.resolve(MEMBERS.filter((member) => member.handle.startsWith(prefix.toLowerCase())));
    };
    return { asked, suggest };
  }

  it('lists the members after @ and a prefix, each with their photo (their initial without one); ArrowDown and Enter put "@handle " in place of the prefix', async () => {
    const { asked, suggest } = members();
    render(<Editor initial="Thanks " suggest={suggest} />);
    await userEvent.click(field());
    await userEvent.keyboard('{End}@al');
    const list = await screen.findByRole('listbox', { name: 'Members to mention' });
    const options = within(list).getAllByRole('option');
    expect(options.map((option) => within(option).getByText(/^@/).textContent)).toEqual(['@alice', '@alina_k']);
    expect(options.map((option) => within(option).getByText(/^A[a-z]/).textContent)).toEqual(['Alice Martin', 'Alina K']);
    expect(options[0]!.querySelector('img')?.getAttribute('src')).toBe(ALICE_PHOTO);
    expect(options[1]!.querySelector('img')).toBeNull();
    expect(options[1]!.querySelector('[aria-hidden="true"]')?.textContent).toBe('A');
    expect(field().getAttribute('aria-autocomplete')).toBe('list');
    expect(field().getAttribute('aria-controls')).toBe(list.id);
    expect(field().getAttribute('aria-activedescendant')).toBe(options[0]!.id);
    expect(options[0]!.getAttribute('aria-selected')).toBe('true');
    expect(asked.at(-1)).toBe('al');

    await userEvent.keyboard('{ArrowDown}');
    expect(field().getAttribute('aria-activedescendant')).toBe(options[1]!.id);
    expect(options[1]!.getAttribute('aria-selected')).toBe('true');
    await userEvent.keyboard('{Enter}');
    expect(field().value).toBe('Thanks @alina_k ');
    expect(field().selectionStart).toBe('Thanks @alina_k '.length);
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(field().hasAttribute('aria-activedescendant')).toBe(false);
    await userEvent.keyboard('and more');
    expect(field().value).toBe('Thanks @alina_k and more');
  });

  it('Tab chooses too, and a click chooses by mouse, replacing only the prefix before the caret', async () => {
    const { suggest } = members();
    render(<Editor initial="hi  there" suggest={suggest} />);
    await userEvent.click(field());
    field().setSelectionRange(3, 3);
    await userEvent.keyboard('@b');
    const option = await screen.findByRole('option', { name: /@bob\.chen/ });
    await userEvent.keyboard('{Tab}');
    expect(field().value).toBe('hi @bob.chen  there');
    expect(document.activeElement).toBe(field());
    await userEvent.keyboard('@ali');
    await userEvent.click(await screen.findByRole('option', { name: /@alice/ }));
    expect(field().value).toBe('hi @bob.chen @alice  there');
    expect(option.isConnected).toBe(false);
  });

  it('Escape closes the list and leaves the text; typing on opens it again', async () => {
    const { suggest } = members();
    render(<Editor suggest={suggest} />);
    await userEvent.click(field());
    await userEvent.keyboard('@a');
    await screen.findByRole('listbox');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(field().value).toBe('@a');
    await userEvent.keyboard('{Enter}');
    expect(field().value).toBe('@a\n');
    await userEvent.keyboard('@al');
    expect(await screen.findByRole('listbox')).toBeTruthy();
  });

  it('offers nothing after an email-like "bob@" and asks nothing', async () => {
    const { asked, suggest } = members();
    render(<Editor suggest={suggest} />);
    await userEvent.click(field());
    await userEvent.keyboard('mail bob@al');
    // a timer set now, longer than the debounce, runs after the one the typing would have set
    await new Promise((resolve) => setTimeout(resolve, SUGGEST_DEBOUNCE_MS + 50));
    expect(asked).toEqual([]);
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(field().hasAttribute('aria-controls')).toBe(false);
    await userEvent.keyboard(' @b');
    expect(within(await screen.findByRole('listbox')).getAllByRole('option')).toHaveLength(1);
    expect(asked.at(-1)).toBe('b');
    expect(mentionAt('bob@al', 6)).toBeNull();
    expect(mentionAt('(@al', 4)).toEqual({ at: 1, prefix: 'al' });
  });

  it('without suggest, @ is only text', async () => {
    render(<Editor />);
    await userEvent.click(field());
    await userEvent.keyboard('@al');
    expect(field().hasAttribute('aria-autocomplete')).toBe(false);
    expect(screen.queryByRole('listbox')).toBeNull();
  });
});
