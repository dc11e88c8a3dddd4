import { MarkdownEditor } from '@forum/web-ui';
import { useFormContext, useWatch } from 'react-hook-form';
import type { TextInputProps } from 'react-admin';
import type { TextRule } from '@forum/contracts';
import { CountedTextInput } from './CountedTextInput';

/**
 * A counted text input (CountedTextInput) that takes Markdown: web-ui's MarkdownEditor around it,
 * Write and Preview, its toolbar writing into the form's field as typing does.
 */
export function MarkdownInput({ label, ...props }: TextInputProps & { rule: TextRule; label: string }) {
  const value: unknown = useWatch({ name: props.source });
  const { setValue } = useFormContext();
  return (
    <MarkdownEditor
      label={label}
      value={typeof value === 'string' ? value : ''}
      onValueChange={(next) => setValue(props.source, next, { shouldDirty: true, shouldTouch: true, shouldValidate: true })}
    >
      <CountedTextInput label={label} {...props} />
    </MarkdownEditor>
  );
}
