import type { TextRule } from '@forum/contracts';
import { CountedTextInput } from './CountedTextInput';
import { MarkdownInput } from './MarkdownInput';
import { requiredText } from './requiredText';

const validateTitle = [requiredText('Title is required')];
const validateDescription = [requiredText('Description is required')];

/** A required, counted Title and a required Markdown Description (an announcement's, a post's), fields `title` and `description`. */
export function TitleAndDescriptionInputs({ titleRule, descriptionRule }: { titleRule: TextRule; descriptionRule: TextRule }) {
  return (
    <>
      <CountedTextInput source="title" label="Title" validate={validateTitle} rule={titleRule} />
      <MarkdownInput source="description" label="Description" validate={validateDescription} rule={descriptionRule} multiline minRows={6} maxRows={16} />
    </>
  );
}
