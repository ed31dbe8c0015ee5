import { closeSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { TEST_CARDS } from '../../packages/network/test-cards.ts';

/** Every card number the tests can send that passes validation, so could be stored or logged. */
const CARD_NUMBERS = [...TEST_CARDS.keys()];

/**
 * Card data must never reach an event, a read model, operational state in plain text, or a log
 * line: looks for every test card number in the raw bytes of every file of a data directory
 * (databases with their -wal/-shm files, keys) and in the service's output. Returns where each
 * was found; empty when clean. Runs after every API test's service stops (service-process.ts).
 */
export function findCardData(dataDir: string, output: string): string[] {
  const found: string[] = [];
  for (const name of safeList(dataDir)) {
    const path = join(dataDir, name);
    if (!statSync(path).isFile()) continue;
    for (const number of numbersIn(path)) found.push(`${name}: ${mask(number)}`);
  }
  for (const number of CARD_NUMBERS) if (output.includes(number)) found.push(`service output: ${mask(number)}`);
  return found;
}

/**
 * Where any of `secrets` (processor secret keys, …) appears in clear: in the raw bytes of a data
 * directory's files or in the given output. Empty when clean.
 */
export function findSecrets(dataDir: string, output: string, secrets: string[]): string[] {
  const found: string[] = [];
  for (const name of safeList(dataDir)) {
    const path = join(dataDir, name);
    if (!statSync(path).isFile()) continue;
    for (const secret of textsIn(path, secrets)) found.push(`${name}: …${secret.slice(-4)}`);
  }
  for (const secret of secrets) if (output.includes(secret)) found.push(`output: …${secret.slice(-4)}`);
  return found;
}

const CHUNK_BYTES = 64 * 2 ** 20;

function numbersIn(path: string): Set<string> {
  return textsIn(path, CARD_NUMBERS);
}

/** Read in chunks that overlap by the longest text's length: files can be larger than a string may be. */
function textsIn(path: string, texts: string[]): Set<string> {
  const OVERLAP = Math.max(...texts.map((text) => text.length)) - 1;
  const seen = new Set<string>();
  const file = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(CHUNK_BYTES + OVERLAP);
    let carried = 0;
    for (;;) {
      const read = readSync(file, buffer, carried, CHUNK_BYTES, null);
      if (read === 0) break;
      const length = carried + read;
      const text = buffer.toString('latin1', 0, length);
      for (const wanted of texts) if (text.includes(wanted)) seen.add(wanted);
      // The tail may hold the start of a text that the next chunk completes.
      carried = Math.min(OVERLAP, length);
      buffer.copy(buffer, 0, length - carried, length);
    }
  } finally {
    closeSync(file);
  }
  return seen;
}

const mask = (number: string): string => `${number.slice(0, 6)}…${number.slice(-4)}`;

function safeList(dataDir: string): string[] {
  try {
    return readdirSync(dataDir);
  } catch {
    return [];
  }
}
