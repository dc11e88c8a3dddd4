/**
 * The project's dependency policy: which licences it accepts, and the packages whose own metadata
 * says too little, each with what a person found when they read it. Change it by review, with the
 * reason written beside the change.
 */

/** Permissive licences (SPDX ids): use, change and ship with the notice kept. */
export const PERMISSIVE = [
  'MIT',
  'MIT-0',
  'ISC',
  'BSD-2-Clause',
  'BSD-3-Clause',
  'Apache-2.0',
  '0BSD',
  'BlueOak-1.0.0',
  'Zlib',
  'Unlicense',
  'CC0-1.0',
  'Python-2.0',
  // the Python Software Foundation License 2.0: argparse (markdown-it's command line) is a port of Python's own module under it; permissive, OSI-approved
  'PSF-2.0',
] as const;

/** Attribution licences for data and documents shipped inside packages (licence lists, browser data). */
export const DATA = ['CC-BY-3.0', 'CC-BY-4.0'] as const;

/**
 * Weak, file-level copyleft the project accepts: it ships these packages' files unchanged (Mozilla's
 * licence asks for the source of changed files of theirs, nothing of the files around them).
 */
export const WEAK_COPYLEFT = ['MPL-2.0'] as const;

/**
 * Copyleft the project does not accept: it would put the forum's own code, or the service it
 * offers over a network, under the same terms. Named so the check says why, not only "unknown".
 */
export const REFUSED = /^(A?GPL|LGPL|SSPL|EUPL|OSL|CDDL|CPAL|RPL|Sleepycat|CC-BY-(NC|SA|ND)|CC-BY-NC|Commons-Clause|BUSL|Elastic)/i;

export const ACCEPTED: ReadonlySet<string> = new Set([...PERMISSIVE, ...DATA, ...WEAK_COPYLEFT]);

/**
 * Packages whose `license` field is not an SPDX expression, by name@version (a new version is read
 * again): the licence their LICENSE file holds, as read by a person.
 */
export const LICENCE_READ_BY_HAND: Readonly<Record<string, { licence: string; why: string }>> = {
  'css-mediaquery@0.1.2': { licence: 'BSD-3-Clause', why: 'package.json says "BSD"; its LICENSE file is the 3-clause BSD text (Yahoo! Inc., 2014)' },
  'parse-cache-control@1.0.1': {
    licence: 'BSD-3-Clause',
    why: 'package.json says "BSD"; its LICENSE file is the 3-clause BSD text (Walmart and other contributors, 2012-2014); through lighthouse',
  },
};
