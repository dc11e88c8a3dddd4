export { allowedLink, mentionsIn, parseMarkdown, type Token } from './parse.ts';
export { mentionPath } from './mentions.ts';
export { markdownToPlainText, plainLine, summarize } from './plain-text.ts';
