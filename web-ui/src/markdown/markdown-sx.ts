import type { SxProps, Theme } from '@mui/material';

/**
 * How rendered Markdown looks: the theme's type scale for the demoted headings, quiet code and
 * quotes, tables with rules, images within the column. The code colours are GitHub's light ones,
 * each at 4.5:1 or more on the code block's grey.
 */
export const markdownSx: SxProps<Theme> = (theme) => ({
  overflowWrap: 'anywhere',
  lineHeight: 1.75,
  '& > :first-child': { mt: 0 },
  '& > :last-child': { mb: 0 },
  '& p, & ul, & ol, & blockquote, & pre, & table': { my: 1.5 },
  '& h3': { ...theme.typography.h6, fontWeight: 700, mt: 2.5, mb: 1 },
  '& h4': { ...theme.typography.subtitle1, fontWeight: 700, mt: 2, mb: 1 },
  '& h5, & h6': { ...theme.typography.subtitle2, fontWeight: 700, mt: 2, mb: 0.5 },
  '& ul, & ol': { pl: 3 },
  '& li.task': { listStyle: 'none', ml: -3 },
  '& li.task > input': { m: 0, mr: 0.5, verticalAlign: 'middle' },
  '& a': { color: 'primary.main', textDecoration: 'underline' },
  '& blockquote': { mx: 0, pl: 2, borderLeft: 4, borderColor: 'divider', color: 'text.secondary' },
  '& code': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: '0.875em', bgcolor: '#f6f8fa', borderRadius: 1, px: 0.5 },
  '& pre': { bgcolor: '#f6f8fa', borderRadius: 1, p: 2, overflowX: 'auto', lineHeight: 1.5, whiteSpace: 'pre' },
  '& pre:focus-visible': { outline: `2px solid ${theme.palette.primary.main}`, outlineOffset: 2 },
  '& pre code': { p: 0, bgcolor: 'transparent', fontSize: '0.8125rem', color: '#1f2328', overflowWrap: 'normal' },
  '& table': { borderCollapse: 'collapse', display: 'block', overflowX: 'auto', maxWidth: '100%' },
  '& th, & td': { border: 1, borderColor: 'divider', px: 1.5, py: 0.75 },
  '& th': { fontWeight: 700, bgcolor: 'action.hover' },
  '& img': { maxWidth: '100%', height: 'auto' },
  '& hr': { border: 0, borderTop: 1, borderColor: 'divider', my: 2 },
  '& .hljs-keyword, & .hljs-selector-tag, & .hljs-doctag, & .hljs-template-tag, & .hljs-type': { color: '#cf222e' },
  '& .hljs-title, & .hljs-section, & .hljs-selector-id, & .hljs-selector-class': { color: '#8250df' },
  '& .hljs-string, & .hljs-regexp, & .hljs-meta .hljs-string': { color: '#0a3069' },
  '& .hljs-number, & .hljs-literal, & .hljs-attr, & .hljs-attribute, & .hljs-variable, & .hljs-meta, & .hljs-symbol, & .hljs-built_in': { color: '#0550ae' },
  '& .hljs-comment, & .hljs-quote': { color: '#57606a', fontStyle: 'italic' },
  '& .hljs-name, & .hljs-tag, & .hljs-addition': { color: '#116329' },
  '& .hljs-params, & .hljs-subst': { color: '#953800' },
  '& .hljs-deletion': { color: '#82071e' },
});
