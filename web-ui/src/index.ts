export { CountAnnouncement, CountedTextField, overLimit } from './CountedTextField.tsx';
export type { CountedTextFieldProps } from './CountedTextField.tsx';
export { PersonAvatar } from './PersonAvatar.tsx';
export type { PersonAvatarProps } from './PersonAvatar.tsx';
export { sxList, type SxList } from './sx.ts';
export { MarkdownEditor } from './markdown/MarkdownEditor.tsx';
export type { MarkdownEditorProps } from './markdown/MarkdownEditor.tsx';
export type { MentionSuggestion, SuggestMentions } from './markdown/MentionSuggestions.tsx';
export { loadMarkdownRenderer, Markdown, PlainMarkdownText } from './markdown/lazy.tsx';
