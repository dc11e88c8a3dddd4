/** A post's page in forum-web (its id encoded). */
export const postPath = (id: string) => `/post/${encodeURIComponent(id)}`;
