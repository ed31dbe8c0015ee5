import type { Commands } from '../platform.ts';
import type { ObjectReader } from './object-reader.ts';

/** What route handlers use: commands to change things, the reader to answer with read models. */
export interface ApiDependencies {
  commands: Commands;
  reader: ObjectReader;
}
