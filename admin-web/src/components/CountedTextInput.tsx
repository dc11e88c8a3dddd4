import { characterCount, type TextRule } from '@forum/contracts';
import { useMemo } from 'react';
import { TextInput, type TextInputProps, type Validator } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { CountAnnouncement } from '@forum/web-ui';

/**
 * `characterCount` under `rule`, remembering the last text it counted: the field's render and its
 * validator (the form validates on change) ask of the same text at each key, and it is counted once.
 */
function counterOf(rule: TextRule) {
  let last: { value: string; count: ReturnType<typeof characterCount> } | undefined;
  return (value: unknown) => {
    const text = typeof value === 'string' ? value : '';
    if (last?.value !== text) last = { value: text, count: characterCount(text, rule.max, rule.kind) };
    return last.count;
  };
}

/**
 * A react-admin text input with a live count of its characters against its rule (contracts) as its
 * helper text (the field's description). Over the limit it is in error at once (the form validates
 * on change), its message saying by how much. It watches its own field only: typing in another
 * field does not render it again.
 */
export function CountedTextInput({ rule, validate = [], ...props }: TextInputProps & { rule: TextRule }) {
  const countOf = useMemo(() => counterOf(rule), [rule]);
  const validators = useMemo(() => {
    const maxCharacters: Validator = (value: unknown) => {
      const count = countOf(value);
      return count.over ? count.text : undefined;
    };
    return [...(Array.isArray(validate) ? validate : [validate]), maxCharacters];
  }, [validate, countOf]);
  const count = countOf(useWatch({ name: props.source }));
  return (
    <>
      <TextInput {...props} validate={validators} helperText={count.text} />
      <CountAnnouncement announcement={count.announcement} />
    </>
  );
}
