import { readdirSync, readFileSync, statSync } from 'node:fs';
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
    const raw = readFileSync(path).toString('latin1');
    for (const number of CARD_NUMBERS) if (raw.includes(number)) found.push(`${name}: ${mask(number)}`);
  }
  for (const number of CARD_NUMBERS) if (output.includes(number)) found.push(`service output: ${mask(number)}`);
  return found;
}

const mask = (number: string): string => `${number.slice(0, 6)}…${number.slice(-4)}`;

function safeList(dataDir: string): string[] {
  try {
    return readdirSync(dataDir);
  } catch {
    return [];
  }
}
