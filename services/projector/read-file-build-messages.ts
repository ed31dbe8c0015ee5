/** What a service starting on an empty read store tells the process that builds it (`read-file-build-process.ts`). */
export interface BuildOrder {
  dataDir: string;
  eventStoreUrl?: string;
}

/** What the build process answers: its file, each batch's position, that it seals the file, then the file built (or why not). */
export type BuildReport =
  | { started: string }
  | { position: number }
  | { sealing: true }
  | { built: string; position: number }
  | { failed: string };
