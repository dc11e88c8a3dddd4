/** A question with two answers: `confirm` resolves true when the person chose the confirming one. */
export interface ConfirmOptions {
  title: string;
  message: string;
  confirmLabel?: string;
  cancelLabel?: string;
  /** The confirming action destroys something (a red button). */
  destructive?: boolean;
}

/** A message to acknowledge ('Error' / 'Failed to register your vote', 'Success!' / …). */
export interface AlertOptions {
  title: string;
  message: string;
  okLabel?: string;
}

/** The dialog asked for: a confirmation or a message (DialogProvider opens it, AppDialog draws it). */
export type Open = { kind: 'confirm'; options: ConfirmOptions } | { kind: 'alert'; options: AlertOptions };
