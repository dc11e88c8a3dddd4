import { useOwnOrigin } from '@forum/web-ui';
import { jsonForScript } from '../lib/json-script';

const SITE_NAME = 'Forum';

export interface PageHeadProps {
  /** The page's own title; the document's is it and the forum's name. */
  readonly title: string;
  /** One or two plain sentences about the page (search results show it). */
  readonly description: string;
  /** The page's path (its canonical address is the forum's origin and it). */
  readonly path: string;
  /** A paged list's page: a later one says so in the document's title (pages sharing a title read as copies). */
  readonly page?: number;
  /** Open Graph's type: a post is an article, a member's page a profile, other pages a website. */
  readonly type?: 'website' | 'article' | 'profile';
  /** schema.org data about the page, written as JSON-LD. */
  readonly jsonLd?: unknown;
}

/**
 * A public page's head: its title, meta description, canonical address, Open Graph and Twitter card
 * tags (React places them in the document's head, and the server renders them there), and its
 * JSON-LD, a data script in the page (never run: the CSP has nothing to allow).
 */
export function PageHead({ title, description, path, page = 1, type = 'website', jsonLd }: PageHeadProps) {
  const url = new URL(path, useOwnOrigin()).href;
  const documentTitle = page > 1 ? `${title} · Page ${page} · ${SITE_NAME}` : `${title} · ${SITE_NAME}`;
  return (
    <>
      <title>{documentTitle}</title>
      <meta name="description" content={description} />
      <link rel="canonical" href={url} />
      <meta property="og:site_name" content={SITE_NAME} />
      <meta property="og:type" content={type} />
      <meta property="og:title" content={title} />
      <meta property="og:description" content={description} />
      <meta property="og:url" content={url} />
      <meta name="twitter:card" content="summary" />
      <meta name="twitter:title" content={title} />
      <meta name="twitter:description" content={description} />
      {jsonLd !== undefined && <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonForScript(jsonLd) }} />}
    </>
  );
}
