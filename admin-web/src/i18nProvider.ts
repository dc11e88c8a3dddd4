import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import { mergeTranslations, type I18nProvider, type TranslationMessages } from 'react-admin';

/**
 * A list's three "nothing to show" texts in plain words: empty (no rows at all), no results (an
 * empty page), and nothing matching the search or filters (react-admin writes these with the
 * resource's menu label: "No Manage Users found using the current filters.").
 */
const listTexts = (things: string, noMatch = `No ${things} match these filters.`) => ({
  empty: `No ${things} yet.`,
  no_results: `No ${things} to show.`,
  no_filtered_results: noMatch,
});

/** Where the console's texts differ from react-admin's English ones. */
const consoleMessages = {
  ra: {
    page: { not_found: 'Page not found' },
    // react-admin's NotFound page writes the full stop after this sentence itself
    message: { not_found: 'There is no page of the console at this address. Check the address, or go back to where you were' },
    navigation: { no_results: 'Nothing to show.', no_filtered_results: 'Nothing matches these filters.' },
  },
  resources: {
    'manage-users': listTexts('users', 'No users match your search.'),
    audit: listTexts('staff actions'),
    'contact-messages': listTexts('contact messages'),
    projections: listTexts('projections'),
    posts: listTexts('posts'),
    'reported-comments': listTexts('reported comments'),
  },
};

const messages = mergeTranslations(englishMessages, consoleMessages) as TranslationMessages;
const stock = polyglotI18nProvider(() => messages, 'en', [{ locale: 'en', name: 'English' }], { allowMissing: true });

/** react-admin asks these with the list's resource but has no per-resource key for them: the resource's own text comes first. */
const LIST_TEXT_KEYS = new Set(['ra.navigation.no_results', 'ra.navigation.no_filtered_results']);

/** The console's texts: react-admin's English ones, with plain ones where the stock texts read oddly. */
export const i18nProvider: I18nProvider = {
  ...stock,
  translate: (key, options: Record<string, unknown> = {}) => {
    const resource: unknown = options.resource;
    if (typeof resource !== 'string' || !LIST_TEXT_KEYS.has(key)) return stock.translate(key, options);
    return stock.translate(`resources.${resource}.${key.split('.').at(-1)}`, { ...options, _: stock.translate(key, options) });
  },
};
