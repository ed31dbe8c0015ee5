/**
 * Cost of the card number detector on the texts it sees most: every string of every log line and
 * of every request's parameters. `npx tsx test/bench/card-numbers-in-text.ts`
 */
import { maskCardNumbers } from '../../packages/network/card-numbers-in-text.ts';

const SAMPLES: Record<string, string> = {
  'request id': 'req_4fQ9xK2mB7pL0sT3vW8yZ1aC',
  'ISO timestamp': '2026-11-26T17:59:53.123Z',
  'access path': '/charges/char_4fQ9xK2mB7pL0sT3vW8yZ1aC/refund',
  'description, 200 chars': 'Order 20261126-0042 for 3 items, shipped to Warsaw; phone +48 600 123 456. '
    .repeat(3)
    .slice(0, 200),
  'percent-encoded card in path': '/customers/%34%32%34%32%34%32%34%32%34%32%34%32%34%32%34%32',
  'grouped card in text': 'paid with 4242 4242 4242 4242 today',
  '1 KB of digits and separators': '1234 5678 9012 3456 7890. '.repeat(40),
};

const ROUNDS = 200_000;
for (const [name, text] of Object.entries(SAMPLES)) {
  const rounds = text.length > 500 ? ROUNDS / 20 : ROUNDS;
  for (let i = 0; i < rounds / 10; i++) maskCardNumbers(text);
  // CPU time, not wall time: on a busy machine waiting for a core is not the detector's cost.
  const started = process.cpuUsage();
  for (let i = 0; i < rounds; i++) maskCardNumbers(text);
  const used = process.cpuUsage(started);
  const nanoseconds = ((used.user + used.system) * 1000) / rounds;
  console.log(
    `${name.padEnd(32)} ${text.length.toString().padStart(5)} chars  ${nanoseconds.toFixed(0).padStart(7)} ns`,
  );
}
