import type { Commands } from '../commands.ts';
import type { ObjectReader } from './object-reader.ts';
import type { ObjectStreams } from './object-streams.ts';

/** What route handlers use: commands to change things, the reader to answer with read models, the streams for history. */
export interface ApiDependencies {
  commands: Commands;
  reader: ObjectReader;
  /** Objects read from their event streams: history and as-of reads. */
  streams: ObjectStreams;
}
