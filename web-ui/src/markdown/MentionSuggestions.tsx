import { HANDLE_MAX } from '@forum/contracts';
import { List, ListItemAvatar, ListItemButton, ListItemText, Paper, Popper } from '@mui/material';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { PersonAvatar } from '../PersonAvatar.tsx';
import type { Edit } from './markdown-edits.ts';

/** A member the @ autocomplete offers (GET /api/users/handles answers these). */
export interface MentionSuggestion {
  _id: string;
  handle: string;
  name: string;
  /** Their photo ('' when they have none: their initial stands in). */
  photoURL: string;
}

/** Members whose handle starts with `prefix` (ignoring case), given by the app. */
export type SuggestMentions = (prefix: string) => Promise<readonly MentionSuggestion[]>;

/** How long the typed prefix must stay as it is before the app is asked. */
export const SUGGEST_DEBOUNCE_MS = 150;

// '@' and up to HANDLE_MAX handle characters just before the caret, not after a letter, digit or _ (an email address)
const MENTION_BEFORE_CARET = new RegExp(`(?:^|[^A-Za-z0-9_])@([A-Za-z0-9_.-]{0,${HANDLE_MAX}})$`);

/** The @mention being typed at `caret` in `text`: where its '@' is and the handle's start typed after it. */
export function mentionAt(text: string, caret: number): { at: number; prefix: string } | null {
  const match = MENTION_BEFORE_CARET.exec(text.slice(0, caret));
  if (!match) return null;
  const prefix = match[1]!;
  return { at: caret - prefix.length - 1, prefix };
}

interface MentionState {
  /** The mention typed, or null when the caret is not in one (or Escape closed its list). */
  query: { at: number; prefix: string; caret: number } | null;
  options: readonly MentionSuggestion[];
  active: number;
}

/**
 * The editor's @ autocomplete: while the caret follows '@' and a handle's start, the app's `suggest`
 * is asked (once the typing rests) and its members are listed under the field, each with their photo; ArrowUp/Down move,
 * Enter or Tab (or a click) puts '@handle ' in place of what was typed, Escape closes the list.
 * The field keeps its textbox role (a multi-line field is no combobox); it tells assistive
 * technology of the list with aria-autocomplete, aria-controls and aria-activedescendant.
 */
export function useMentionSuggestions({
  suggest,
  field,
  listId,
  replace,
}: {
  suggest: SuggestMentions | undefined;
  field: () => HTMLTextAreaElement | null;
  listId: string;
  /** Puts an edit in the field (its text and the caret after it). */
  replace: (edit: Edit) => void;
}) {
  const [state, setState] = useState<MentionState>({ query: null, options: [], active: 0 });
  const closedAt = useRef<number | null>(null);
  const { query } = state;

  const look = () => {
    const textarea = field();
    if (!suggest || !textarea || textarea.selectionStart !== textarea.selectionEnd) return setState({ query: null, options: [], active: 0 });
    const found = mentionAt(textarea.value, textarea.selectionStart);
    if (found?.at !== closedAt.current) closedAt.current = null;
    const next = found && closedAt.current === null ? { ...found, caret: textarea.selectionStart } : null;
    setState((before) =>
      before.query?.at === next?.at && before.query?.prefix === next?.prefix
        ? { ...before, query: next }
        : { query: next, options: next ? before.options : [], active: 0 },
    );
  };

  const prefix = query?.prefix;
  useEffect(() => {
    if (prefix === undefined || !suggest) return;
    let current = true;
    const timer = setTimeout(() => {
      suggest(prefix).then(
        (options) => current && setState((before) => (before.query?.prefix === prefix ? { ...before, options, active: 0 } : before)),
        () => current && setState((before) => ({ ...before, options: [] })),
      );
    }, SUGGEST_DEBOUNCE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [prefix, suggest]);

  const open = query !== null && state.options.length > 0;
  const optionId = (index: number) => `${listId}-${index}`;

  useEffect(() => {
    const textarea = field();
    if (!textarea || !suggest) return;
    textarea.setAttribute('aria-autocomplete', 'list');
    if (open) {
      textarea.setAttribute('aria-controls', listId);
      textarea.setAttribute('aria-activedescendant', optionId(state.active));
    } else {
      textarea.removeAttribute('aria-controls');
      textarea.removeAttribute('aria-activedescendant');
    }
  });

  const choose = (option: MentionSuggestion) => {
    const textarea = field();
    if (!query || !textarea) return;
    const inserted = `@${option.handle} `;
    const caret = query.at + inserted.length;
    setState({ query: null, options: [], active: 0 });
    replace({ text: textarea.value.slice(0, query.at) + inserted + textarea.value.slice(query.caret), start: caret, end: caret });
  };

  /** The field's keys while the list is open; true when the key was the list's. */
  const onKeyDown = (event: KeyboardEvent): boolean => {
    if (!open || event.altKey || event.ctrlKey || event.metaKey) return false;
    const count = state.options.length;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setState((before) => ({ ...before, active: (before.active + step + count) % count }));
    } else if ((event.key === 'Enter' || event.key === 'Tab') && !event.shiftKey) {
      choose(state.options[state.active]!);
    } else if (event.key === 'Escape') {
      // the list closes, not the dialog the editor may be in
      event.stopPropagation();
      closedAt.current = query.at;
      setState({ query: null, options: [], active: 0 });
    } else return false;
    event.preventDefault();
    return true;
  };

  const list = (
    <Popper open={open} anchorEl={open ? field() : null} placement="bottom-start" sx={{ zIndex: 'modal' }}>
      <Paper elevation={6}>
        <List id={listId} role="listbox" aria-label="Members to mention" dense sx={{ minWidth: 220, maxWidth: 360 }}>
          {state.options.map((option, index) => (
            <ListItemButton
              key={option._id}
              id={optionId(index)}
              role="option"
              aria-selected={index === state.active}
              selected={index === state.active}
              tabIndex={-1}
              // the field keeps the focus and its caret
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => choose(option)}
            >
              <ListItemAvatar sx={{ minWidth: 40 }}>
                <PersonAvatar name={option.name} photo={option.photoURL} size={28} />
              </ListItemAvatar>
              <ListItemText primary={`@${option.handle}`} secondary={option.name} slotProps={{ primary: { sx: { fontWeight: 600 } } }} />
            </ListItemButton>
          ))}
        </List>
      </Paper>
    </Popper>
  );

  return { list, onKeyDown, look };
}
