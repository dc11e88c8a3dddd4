/** A post's page in forum-web (its id encoded). */
export const postPath = (id: string) => `/post/${encodeURIComponent(id)}`;

/** The edit page of the signed-in author's post. */
export const editPostPath = (id: string) => `/dashboard/my-post/${encodeURIComponent(id)}/edit`;
