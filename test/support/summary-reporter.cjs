// Mocha's spec reporter, then the ten slowest test files (every file with SLOWEST_SHOWN=all, or
// the N slowest with SLOWEST_SHOWN=N) and the sum of all files' times, then one plain closing line
// ("N passed, N failed, N skipped") that CI reads to know how many tests ran.
const path = require('node:path');
const Mocha = require('mocha');
const { Spec } = Mocha.reporters;
const { EVENT_RUN_END, EVENT_TEST_END, EVENT_HOOK_END } = Mocha.Runner.constants;

/** How many files the closing list shows: `SLOWEST_SHOWN=all` shows every file. */
const SLOWEST_SHOWN = process.env.SLOWEST_SHOWN === 'all' ? Infinity : Number(process.env.SLOWEST_SHOWN) || 10;

class SummaryReporter extends Spec {
  constructor(runner, options) {
    super(runner, options);
    // A file's time is the time of its tests and hooks (starting services included). Added up
    // from durations rather than clocked here: in parallel mode the events of a file arrive
    // together when its worker is done with it.
    const fileTimes = new Map();
    const addTime = (runnable) => {
      if (!runnable.file || typeof runnable.duration !== 'number') return;
      fileTimes.set(runnable.file, (fileTimes.get(runnable.file) ?? 0) + runnable.duration);
    };
    runner.on(EVENT_TEST_END, addTime);
    runner.on(EVENT_HOOK_END, addTime);
    runner.once(EVENT_RUN_END, () => {
      const byTime = [...fileTimes].sort(([, a], [, b]) => b - a);
      const slowest = byTime.slice(0, SLOWEST_SHOWN);
      const seconds = (ms) => `${(ms / 1000).toFixed(1).padStart(6)} s`;
      if (slowest.length > 0) {
        const heading = slowest.length === byTime.length ? 'test files, slowest first' : 'slowest test files';
        process.stdout.write(`\n${heading}:\n`);
        for (const [file, ms] of slowest)
          process.stdout.write(`  ${seconds(ms)}  ${path.relative(process.cwd(), file)}\n`);
        const sum = byTime.reduce((total, [, ms]) => total + ms, 0);
        process.stdout.write(`  ${seconds(sum)}  the sum of all ${byTime.length} files\n`);
      }
      const { passes, failures, pending } = runner.stats;
      process.stdout.write(`\ntests: ${passes} passed, ${failures} failed, ${pending} skipped\n`);
    });
  }
}
module.exports = SummaryReporter;
