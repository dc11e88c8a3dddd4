import { createLowlight } from 'lowlight';
import bash from 'highlight.js/lib/languages/bash';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import python from 'highlight.js/lib/languages/python';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

/**
 * The syntax highlighter, a chunk of its own that a page loads when it first shows code: lowlight
 * (highlight.js's grammars, giving a tree rather than an HTML string) with the languages members
 * write most. A fence names its language (```ts); without one the highlighter guesses among these.
 */
const lowlight = createLowlight({ bash, css, diff, go, java, javascript, json, python, sql, typescript, xml, yaml });

/** A highlighted run: its highlight.js classes (hljs-keyword, …) and its text or runs. */
export interface Run {
  classes: string[];
  children: (Run | string)[];
}

type Node = ReturnType<typeof lowlight.highlight>['children'][number];

function runsOf(nodes: readonly Node[]): (Run | string)[] {
  return nodes.flatMap((node): (Run | string)[] => {
    if (node.type === 'text') return [node.value];
    if (node.type !== 'element') return [];
    const className = node.properties.className;
    const classes = Array.isArray(className) ? className.filter((name): name is string => typeof name === 'string' && name.startsWith('hljs-')) : [];
    return [{ classes, children: runsOf(node.children) }];
  });
}

/** `code` highlighted as `language` (a name or alias of the ones above), guessed when none is named, or null when the language is not one of them. */
export function highlight(code: string, language: string): (Run | string)[] | null {
  if (language === '') return runsOf(lowlight.highlightAuto(code).children);
  if (!lowlight.registered(language)) return null;
  return runsOf(lowlight.highlight(language, code).children);
}
