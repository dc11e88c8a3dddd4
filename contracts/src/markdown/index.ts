export { allowedLink, parseMarkdown, type Token } from './parse.ts';
export { markdownToPlainText, plainLine, summarize } from './plain-text.ts';
