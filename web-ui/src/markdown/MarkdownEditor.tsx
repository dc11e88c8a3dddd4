import FormatBold from '@mui/icons-material/FormatBold';
import FormatItalic from '@mui/icons-material/FormatItalic';
import FormatListBulleted from '@mui/icons-material/FormatListBulleted';
import FormatQuote from '@mui/icons-material/FormatQuote';
import Code from '@mui/icons-material/Code';
import InsertLink from '@mui/icons-material/InsertLink';
import { Box, IconButton, Paper, Stack, Tab, Tabs, Tooltip, Typography } from '@mui/material';
import { useId, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { applyFormat, type Edit, type Format } from './markdown-edits.ts';
import { Markdown } from './lazy.tsx';
import { useMentionSuggestions, type SuggestMentions } from './MentionSuggestions.tsx';

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
const MOD = isMac ? '⌘' : 'Ctrl+';

const BUTTONS: readonly { format: Format; label: string; key?: string; icon: ReactNode }[] = [
  { format: 'bold', label: 'Bold', key: 'B', icon: <FormatBold /> },
  { format: 'italic', label: 'Italic', key: 'I', icon: <FormatItalic /> },
  { format: 'link', label: 'Link', key: 'K', icon: <InsertLink /> },
  { format: 'code', label: 'Code', icon: <Code /> },
  { format: 'list', label: 'Bulleted list', icon: <FormatListBulleted /> },
  { format: 'quote', label: 'Quote', icon: <FormatQuote /> },
];

const SHORTCUTS: Record<string, Format> = { b: 'bold', i: 'italic', k: 'link' };

export interface MarkdownEditorProps {
  /** The source as typed (what the field shows and its counter counts). */
  value: string;
  /** Called with the new source when the toolbar or a shortcut changes it. */
  onValueChange: (value: string) => void;
  /** What the field is, for the toolbar's and the tabs' names ("Post Description"). */
  label: string;
  /** The text field itself (a CountedTextField, a react-admin input), multiline. */
  children: ReactNode;
  /** Members whose handle starts with a prefix: given, typing '@' offers them (the @ autocomplete). */
  suggest?: SuggestMentions;
}

/**
 * A Markdown text field with Write and Preview tabs. Write shows the field under a small toolbar
 * (bold, italic, link, code, list, quote) whose buttons, and Ctrl/⌘+B, I and K in the field, only
 * put Markdown around or before the selection; the field, its counter and its messages stay as
 * they are. Preview shows the source rendered as the forum will show it. With `suggest`, typing
 * '@' and a handle's start lists the members to mention (useMentionSuggestions).
 */
export function MarkdownEditor({ value, onValueChange, label, children, suggest }: MarkdownEditorProps) {
  const id = useId();
  const [tab, setTab] = useState<'write' | 'preview'>('write');
  const fieldBox = useRef<HTMLDivElement>(null);
  const pending = useRef<Edit | null>(null);
  const textarea = () => fieldBox.current?.querySelector('textarea') ?? null;

  // the selection is put back once the new value is in the field
  useLayoutEffect(() => {
    const edit = pending.current;
    const field = textarea();
    if (!edit || !field || field.value !== edit.text) return;
    pending.current = null;
    field.focus();
    field.setSelectionRange(edit.start, edit.end);
  }, [value]);

  const replace = (edit: Edit) => {
    pending.current = edit;
    onValueChange(edit.text);
  };
  const mentions = useMentionSuggestions({ suggest, field: textarea, listId: `${id}-mentions`, replace });

  const format = (kind: Format) => {
    const field = textarea();
    if (!field) return;
    replace(applyFormat({ text: field.value, start: field.selectionStart, end: field.selectionEnd }, kind));
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (mentions.onKeyDown(event)) return;
    const shortcut = SHORTCUTS[event.key.toLowerCase()];
    if (!shortcut || !(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
    if (!(event.target instanceof HTMLTextAreaElement)) return;
    event.preventDefault();
    format(shortcut);
  };

  return (
    <Paper variant="outlined" sx={{ p: 1, pt: 0 }}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', borderBottom: 1, borderColor: 'divider', mb: 1.5 }}>
        <Tabs
          value={tab}
          onChange={(_event, next: 'write' | 'preview') => setTab(next)}
          aria-label={`${label}: write or preview`}
          // two tabs never scroll: nothing clips the focus ring drawn around a tab (the scroller's
          // overflow is an inline style of MUI's, hence !important)
          sx={{ overflow: 'visible', '& .MuiTabs-scroller': { overflow: 'visible !important' } }}
        >
          <Tab value="write" label="Write" id={`${id}-write`} aria-controls={`${id}-write-panel`} />
          <Tab value="preview" label="Preview" id={`${id}-preview`} aria-controls={`${id}-preview-panel`} />
        </Tabs>
        {tab === 'write' && (
          <Stack direction="row" role="toolbar" aria-label={`${label}: formatting`} sx={{ flexWrap: 'wrap' }}>
            {BUTTONS.map((button) => (
              <Tooltip key={button.format} title={button.key ? `${button.label} (${MOD}${button.key})` : button.label}>
                <IconButton
                  size="small"
                  aria-label={button.label}
                  aria-keyshortcuts={button.key ? `${isMac ? 'Meta' : 'Control'}+${button.key}` : undefined}
                  // the field keeps its selection while the button is pressed
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => format(button.format)}
                >
                  {button.icon}
                </IconButton>
              </Tooltip>
            ))}
          </Stack>
        )}
      </Stack>
      <Box
        ref={fieldBox}
        role="tabpanel"
        id={`${id}-write-panel`}
        aria-labelledby={`${id}-write`}
        hidden={tab !== 'write'}
        onKeyDown={onKeyDown}
        // the text or the caret moved: the mention the caret is in (or not) may have changed
        onInput={mentions.look}
        onSelect={mentions.look}
      >
        {children}
        {tab === 'write' && mentions.list}
      </Box>
      {tab === 'preview' && (
        <Box role="tabpanel" id={`${id}-preview-panel`} aria-labelledby={`${id}-preview`} sx={{ minHeight: 120, px: 1, pb: 1 }}>
          {value.trim() === '' ? <Typography color="text.secondary">Nothing to preview yet.</Typography> : <Markdown source={value} />}
        </Box>
      )}
      <Typography variant="caption" color="text.secondary" sx={{ display: 'block', px: 1 }}>
        Markdown: **bold**, _italic_, [a link](https://…), `code`, ``` for a code block, - for a list, &gt; for a quote.
      </Typography>
    </Paper>
  );
}
