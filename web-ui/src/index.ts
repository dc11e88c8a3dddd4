export { CountAnnouncement, CountedTextField } from './CountedTextField.tsx';
export type { CountedTextFieldProps } from './CountedTextField.tsx';
