import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const ROOT = resolve(import.meta.dirname, '../..');

/** Programs of test/support that tests run as processes of their own (and kill), built beside. */
const TEST_PROGRAMS = ['append-until-killed', 'store-cards-until-killed', 'subscription-worker-process'] as const;
const TEST_PROGRAMS_DIR = join(ROOT, '.tmp/test-programs');

/** What the builds are made from. */
const SOURCES = ['services', 'packages', 'projections', 'test/support', 'package.json'];
/** What the builds make; a run whose builds are newer than every source builds nothing. */
const BUILT = ['dist/main.js', 'dist/cli/main.js', ...TEST_PROGRAMS.map((name) => `.tmp/test-programs/${name}.js`)];

/**
 * Mocha global setup (once per run, before any worker starts): builds `dist/` as `npm run build`
 * does, for the tests that run the service or the CLI as a process of its own, and the test
 * programs that tests kill, the same way (about a second; a process starts faster from the build
 * than through tsx). Skipped when the builds are newer than their sources.
 */
export async function mochaGlobalSetup(): Promise<void> {
  if (buildsAreFresh()) return;
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
  await build({
    entryPoints: TEST_PROGRAMS.map((name) => join(ROOT, 'test/support', `${name}.ts`)),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outdir: TEST_PROGRAMS_DIR,
    logLevel: 'warning',
  });
}

function buildsAreFresh(): boolean {
  const built = BUILT.map((file) => join(ROOT, file));
  if (!built.every((file) => existsSync(file))) return false;
  const oldestBuild = Math.min(...built.map((file) => statSync(file).mtimeMs));
  return SOURCES.every((source) => newestChange(join(ROOT, source)) < oldestBuild);
}

/** The latest modification time of a file, or of anything in a directory (the directory included). */
function newestChange(path: string): number {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(path).reduce((newest, entry) => Math.max(newest, newestChange(join(path, entry))), stats.mtimeMs);
}

/** The built program of test/support/<name>.ts, to run with `node`. */
export function testProgram(name: (typeof TEST_PROGRAMS)[number]): string {
  return join(TEST_PROGRAMS_DIR, `${name}.js`);
}
