import type { CustomerCommands } from '../../packages/commands/customer-commands.ts';
import type { ObjectReader } from './object-reader.ts';

/** What route handlers use: commands to change things, the reader to answer with read models. */
export interface ApiDependencies {
  commands: { customers: CustomerCommands };
  reader: ObjectReader;
}
