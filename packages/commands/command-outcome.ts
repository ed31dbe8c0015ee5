/** Outcome of a command: the object it concerns and the log position to wait for before reading. */
export interface CommandOutcome {
  id: string;
  position: number | null;
}
