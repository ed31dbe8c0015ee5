import { fileResource } from '../../packages/domain/file/file-events.ts';
import { FileCommands } from '../../packages/commands/file-commands.ts';
import { fileReadSide } from '../../projections/resources/file-read-side.ts';
import { fileRoutes } from '../api/routes/file-routes.ts';
import { resourceModule } from './resource-module.ts';

declare module '../commands.ts' {
  interface Commands {
    readonly files: FileCommands;
  }
}

export const fileModule = resourceModule({
  identity: fileResource,
  readSide: fileReadSide,
  commands: {
    files: (wiring) => new FileCommands(wiring.aggregates, wiring.fileStore, wiring.config.fileMaxBytes),
  },
  routes: fileRoutes,
});
