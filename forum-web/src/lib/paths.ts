/** A post's page in forum-web (its id encoded): contracts' postPagePath, the address the sitemap and feeds name too. */
export { postPagePath as postPath } from '@forum/contracts';

/** The edit page of the signed-in author's post. */
export const editPostPath = (id: string) => `/dashboard/my-post/${encodeURIComponent(id)}/edit`;
