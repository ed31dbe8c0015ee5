// Prints the test files for `npm run test:all`, the slowest first. Mocha's parallel workers take
// files in the order given: a long file taken last would run on alone while the other worker
// idles, so the long ones go first and the many short ones fill the end of the run.
const { readdirSync } = require('node:fs');
const { join, relative } = require('node:path');

const ROOT = join(module.path, '../..');

/** The files that take longest, longest first (the end of `npm test` prints the ten slowest). */
const SLOWEST = [
  'test/api/full-rebuild-file.test.ts',
  'test/browser/payer-languages.test.ts',
  'test/reliability/fuzz.test.ts',
  'test/reliability/idempotency-crash-workflows.test.ts',
  'test/browser/checkout-three-d-secure.test.ts',
  'test/api/webhook-bullmq-recovery.test.ts',
  'test/browser/checkout-merchant-pages.test.ts',
  'test/reliability/process-roles.test.ts',
  'test/api/live-unanswered-intents-shift4.test.ts',
  'test/api/idempotency-crash.test.ts',
  'test/api/idempotency-crash-customers.test.ts',
  'test/browser/checkout-payments.test.ts',
  'test/api/live-unknown-outcome-refunds.test.ts',
  'test/api/live-processing.test.ts',
  'test/api/live-unanswered-intents-stripe.test.ts',
  'test/api/live-unknown-outcome-credits.test.ts',
  'test/api/webhook-deliveries-bullmq.test.ts',
];

/** Every `*.test.ts` under a directory, in the order mocha's own glob gives them. */
function testFilesUnder(dir) {
  return readdirSync(join(ROOT, dir), { withFileTypes: true })
    .flatMap((entry) => {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) return testFilesUnder(path);
      return entry.name.endsWith('.test.ts') ? [path] : [];
    })
    .sort();
}

const all = testFilesUnder('test');
const slowest = SLOWEST.filter((file) => all.includes(file));
const rest = all.filter((file) => !slowest.includes(file));
process.stdout.write([...slowest, ...rest].map((file) => relative(process.cwd(), join(ROOT, file))).join('\n') + '\n');
