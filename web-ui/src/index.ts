export { CountAnnouncement, CountedTextField, overLimit } from './CountedTextField.tsx';
export type { CountedTextFieldProps } from './CountedTextField.tsx';
