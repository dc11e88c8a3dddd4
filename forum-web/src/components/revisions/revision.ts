/** One field of a revision as the revisions dialog compares it (a post's title, description, tags; a comment's text). */
export interface RevisionField {
  label: string;
  text: string;
}

/** A revision of a post or a comment, as the revisions dialog shows it. */
export interface RevisionView {
  number: number;
  editedAt: string;
  editorName: string;
  reason?: string;
  fields: RevisionField[];
}

/** What the dialog has of the revisions: loading, failed, or the list (oldest first) and how many there are. */
export interface RevisionsState {
  isLoading: boolean;
  isError: boolean;
  revisions?: RevisionView[];
  totalCount?: number;
}

/** A revisions query's answer as the dialog takes it; loading too while it is open and nothing has come yet. */
export function revisionsState<R>(
  open: boolean,
  query: { data?: { revisions: R[]; totalCount: number }; isLoading: boolean; isError: boolean },
  view: (revision: R) => RevisionView,
): RevisionsState {
  const { data, isLoading, isError } = query;
  return { isLoading: isLoading || (open && !data && !isError), isError, revisions: data?.revisions.map(view), totalCount: data?.totalCount };
}
