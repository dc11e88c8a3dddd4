import { SITEMAP_INDEX_PATH } from '@forum/contracts';

/**
 * What crawlers are asked to leave alone: the admin console (and the realm's admin API below it), the
 * API's calls (private or not, they are data for the apps, not pages), the sign-in pages, the
 * search's result pages (endless combinations of words, thin copies of the posts) and the pages only
 * a member sees (their dashboard, an unsubscribe link's page). The public pages, the sitemap and the
 * feeds stay open; the sitemap is named by its absolute address, as the protocol asks.
 */
const DISALLOWED = ['/admin', '/api/', '/realms/', '/search', '/dashboard', '/unsubscribe'];

/** robots.txt (RFC 9309) of a forum whose browsers reach it at `publicUrl`. */
export function robotsTxt(publicUrl: string): string {
  return ['User-agent: *', ...DISALLOWED.map((path) => `Disallow: ${path}`), 'Allow: /', '', `Sitemap: ${publicUrl}${SITEMAP_INDEX_PATH}`, ''].join('\n');
}
