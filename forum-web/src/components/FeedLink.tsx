import { ATOM_TYPE } from '@forum/contracts';

/**
 * A page's Atom feed, for feed readers and browsers that look for one (`<link rel="alternate">`):
 * React places it in the document's head while the page is shown (docs/seo.md). The site's own feed
 * of the newest posts is named in index.html.
 */
export function FeedLink({ href, title }: { href: string; title: string }) {
  return <link rel="alternate" type={ATOM_TYPE} href={href} title={title} />;
}
