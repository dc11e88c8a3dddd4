/** Where a forumctl command writes. */
export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
  /** The terminal for progress bars (absent: plain progress lines on `err`). */
  terminal?: NodeJS.WriteStream;
  /** Takes over Ctrl-C for a command that stops cleanly (a rebuild, to resume next time); resolves on it. */
  interrupted?: () => Promise<void>;
}
