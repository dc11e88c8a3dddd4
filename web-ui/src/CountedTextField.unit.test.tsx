// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { descriptionOf } from './testing/index.ts';
import { CountedFilledField } from './CountedFilledField.tsx';
import { CountedTextField } from './CountedTextField.tsx';

afterEach(cleanup);

// the two fields count, describe and announce alike: MUI's TextField, and its filled variant put together from its parts
describe.each([
  ['CountedTextField', CountedTextField],
  ['CountedFilledField', CountedFilledField],
])('%s', (_name, Counted) => {
  function Field({ initial = '', max = 10, helperText }: { initial?: string; max?: number; helperText?: string }) {
    const [value, setValue] = useState(initial);
    return (
      <Counted
        label="Title"
        value={value}
        onChange={(event) => setValue(event.target.value)}
        rule={{ kind: 'line', label: 'Title', max }}
        helperText={helperText}
      />
    );
  }

  const field = () => screen.getByRole('textbox', { name: 'Title' });

  describe('a counted text field', () => {
    it('describes the field with what is left, counted as the API counts (an emoji is one character)', async () => {
      render(<Field />);
      expect(descriptionOf(field())).toBe('10 characters left (0 of 10)');
      await userEvent.type(field(), 'Hi \u{1f600}');
      expect(descriptionOf(field())).toBe('6 characters left (4 of 10)');
      expect(field().getAttribute('aria-invalid')).toBe('false');
      // no maxlength: the browser would count UTF-16 units and cut a paste silently
      expect(field().hasAttribute('maxlength')).toBe(false);
    });

    it('over the limit the field is in error and says by how much; a screen reader is told once, politely', async () => {
      render(<Field initial="123456789" />);
      expect(screen.getByRole('status').textContent).toBe('1 character or fewer left');
      await userEvent.type(field(), '0');
      expect(screen.getByRole('status').textContent).toBe('Limit reached: 10 characters');
      await userEvent.type(field(), 'ab');
      expect(field().getAttribute('aria-invalid')).toBe('true');
      expect(descriptionOf(field())).toBe('2 characters too many (the most is 10)');
      expect(screen.getByRole('status').textContent).toBe('Too many characters: the most is 10');
    });

    it('a message of the form or the server comes first, the count after it', () => {
      render(<Field helperText="Title is required" />);
      expect(descriptionOf(field())).toBe('Title is required 10 characters left (0 of 10)');
    });
  });
});
