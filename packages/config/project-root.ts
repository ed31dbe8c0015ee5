import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The directory holding the service's package.json, found upwards from `from`: the same answer
 * whether the code runs from its TypeScript sources (tsx) or from the compiled bundle in `dist/`.
 */
export function projectRoot(from: string): string {
  for (let directory = from; ; directory = dirname(directory)) {
    if (existsSync(join(directory, 'package.json'))) return directory;
    if (dirname(directory) === directory) throw new Error(`No package.json above ${from}`);
  }
}
