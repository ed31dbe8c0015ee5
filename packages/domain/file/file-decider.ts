import type { Decider } from '../decider.ts';
import { InvalidRequestError } from '../errors.ts';
import type { FileDetails, FileEvent } from './file-events.ts';

export type FileState = { status: 'none' } | ({ status: 'uploaded' } & FileDetails);

/**
 * An uploaded file. Its type is checked against its purpose before deciding (the content is
 * sniffed there); here a file is recorded once.
 */
export type FileCommand = { type: 'RecordUpload'; details: FileDetails };

export const fileDecider: Decider<FileCommand, FileEvent, FileState> = {
  initialState: () => ({ status: 'none' }),
  evolve: (_state, event) => ({ status: 'uploaded', ...event.data }),
  decide(command, state) {
    if (state.status !== 'none') throw new InvalidRequestError(`File '${command.details.fileId}' already exists`);
    return [{ type: 'FileUploaded', data: command.details }];
  },
};
