import { fileResource, fileEventTypes } from '../../packages/domain/file/file-events.ts';
import { FileCommands } from '../../packages/commands/file-commands.ts';
import { fileReadSide } from '../../projections/resources/file-read-side.ts';
import { fileRoutes } from '../api/routes/file-routes.ts';
import { filesCollection } from '../../projections/files-projection.ts';
import { fileSchema } from '../api/schemas/file-schemas.ts';
import { resourceModule, resourceObjects } from './resource-module.ts';

declare module '../commands.ts' {
  interface Commands {
    readonly files: FileCommands;
  }
}

export const fileModule = resourceModule({
  identity: fileResource,
  events: fileEventTypes,
  readSide: fileReadSide,
  objects: resourceObjects({ collection: filesCollection, schema: fileSchema, folded: fileEventTypes }),
  commands: {
    files: (wiring) => new FileCommands(wiring.aggregates, wiring.fileStore, wiring.config.fileMaxBytes),
  },
  routes: fileRoutes,
});
