import { closeSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { TEST_CARDS } from '../../packages/network/test-cards.ts';

/**
 * Card numbers the tests send besides the simulator's test cards, of lengths those lack: a 13-digit
 * Visa (which charges accept) and a 12-digit Maestro.
 */
export const VISA_13_DIGITS = '4222222222222';
export const MAESTRO_12_DIGITS = '675964982648';

/** Every card number the tests can send that passes validation, so could be stored or logged. */
const CARD_NUMBERS = [...TEST_CARDS.keys(), VISA_13_DIGITS, MAESTRO_12_DIGITS];

/**
 * Card data must never reach an event, a read model, operational state in plain text, a log line
 * or the CLI's output: looks for every test card number in the raw bytes of every file of a data
 * directory (databases with their -wal/-shm files, keys) and in the service's output, written in
 * any way a reader would still recognise it (see cardDigits). Returns where each was found; empty
 * when clean. Runs after every API test's service stops (service-process.ts), and on every CLI
 * run's output (runCli).
 */
export function findCardData(dataDir: string, output: string): string[] {
  const found: string[] = [];
  for (const name of safeList(dataDir)) {
    const path = join(dataDir, name);
    if (!isFileStillThere(path)) continue;
    for (const number of numbersIn(path)) found.push(`${name}: ${mask(number)}`);
  }
  for (const number of cardNumbersIn(output)) found.push(`service output: ${mask(number)}`);
  return found;
}

/** Whether `path` is a file and still there: a rebuild deletes the read store file it replaced, late. */
function isFileStillThere(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** What may stand between the digits of a card number written in groups. */
const SEPARATOR = String.raw`[\s\-./+\u00ad\u200b-\u200d\u2060\ufeff]`;
/** Digits with separators between them: as many as a card number has (12) or more. */
const DIGIT_RUN = new RegExp(`[0-9](?:${SEPARATOR}*[0-9]){11,}`, 'g');
const SEPARATORS = new RegExp(`${SEPARATOR}+`, 'g');

/**
 * The test card numbers that `text` holds, however written: every spelling of a digit made an
 * ASCII digit (see digitsSpelledOut), then each run of digits with separators between them (spaces
 * of any kind, tabs, line breaks, dashes, dots, slashes, `+`, zero-width characters) read as its
 * digits alone. A card number written `4242.4242.4242.4242`, `%34%32…`, `４２４２…` or
 * `9<number>0` is then a plain substring of one run. Only the runs are rewritten, not the whole
 * text: a data directory's files are hundreds of megabytes.
 */
export function cardNumbersIn(text: string): string[] {
  const found = new Set<string>();
  for (const [run] of digitsSpelledOut(text).matchAll(DIGIT_RUN)) {
    const digits = run.replace(SEPARATORS, '');
    for (const number of CARD_NUMBERS) if (digits.includes(number)) found.add(number);
  }
  return CARD_NUMBERS.filter((number) => found.has(number));
}

/**
 * The text with every spelling of a digit or a separator made plain: JSON escapes (`\t`,
 * `\u00a0`) and percent-escapes (`%34`, `%20`, `%C2%A0`) decoded, fullwidth digits made ASCII.
 */
function digitsSpelledOut(text: string): string {
  return text
    .replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/\\[tnr]/g, ' ')
    .replace(/(?:%[0-9A-Fa-f]{2})+/g, percentDecoded)
    .replace(/[\uff10-\uff19]/g, (digit) => String(digit.charCodeAt(0) - 0xff10));
}

function percentDecoded(escapes: string): string {
  try {
    return decodeURIComponent(escapes);
  } catch {
    // Not UTF-8 as a whole: decode the ASCII escapes alone.
    return escapes.replace(/%([0-7][0-9A-Fa-f])/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
}

/**
 * Where any of `secrets` (processor secret keys, …) appears in clear: in the raw bytes of a data
 * directory's files or in the given output. Empty when clean.
 */
export function findSecrets(dataDir: string, output: string, secrets: string[]): string[] {
  const found: string[] = [];
  const overlap = Math.max(...secrets.map((secret) => secret.length)) - 1;
  const secretsIn = (text: string) => secrets.filter((secret) => text.includes(secret));
  for (const name of safeList(dataDir)) {
    const path = join(dataDir, name);
    if (!isFileStillThere(path)) continue;
    for (const secret of foundInFile(path, overlap, secretsIn)) found.push(`${name}: …${secret.slice(-4)}`);
  }
  for (const secret of secretsIn(output)) found.push(`output: …${secret.slice(-4)}`);
  return found;
}

/**
 * More than the longest spelling of a card number (19 digits as UTF-8 percent-escapes, with
 * separators between).
 */
const CARD_NUMBER_OVERLAP = 1024;

const numbersIn = (path: string): Set<string> => foundInFile(path, CARD_NUMBER_OVERLAP, cardNumbersIn);

/**
 * What `find` finds in a file, read in chunks that overlap by `overlap` bytes: files can be larger
 * than a string may be.
 */
function foundInFile(path: string, overlap: number, find: (text: string) => string[]): Set<string> {
  const CHUNK_BYTES = 64 * 2 ** 20;
  const seen = new Set<string>();
  const file = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(CHUNK_BYTES + overlap);
    let carried = 0;
    for (;;) {
      const read = readSync(file, buffer, carried, CHUNK_BYTES, null);
      if (read === 0) break;
      const length = carried + read;
      for (const text of find(buffer.toString('utf8', 0, length))) seen.add(text);
      // The tail may hold the start of a text that the next chunk completes.
      carried = Math.min(overlap, length);
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
