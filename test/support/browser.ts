import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium (`apt-get install -y chromium`); Playwright's own download is not used. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface HeadlessBrowser {
  context: BrowserContext;
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

/**
 * Headless Chromium with a fresh profile (its own user data directory), removed on close;
 * `locale` is the browser's language (`navigator.language`, `Accept-Language`).
 */
export async function launchBrowser(options: { locale?: string } = {}): Promise<HeadlessBrowser> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'chromium-profile-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1000, height: 800 },
    ...(options.locale ? { locale: options.locale } : {}),
  });
  return {
    context,
    newPage: () => context.newPage(),
    async close() {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Where screenshots go: `docs/images` when UPDATE_SCREENSHOTS=1 (to refresh the documentation's
 * pictures), a temporary directory otherwise, so that test runs leave the tree unchanged.
 */
export function screenshotDir(): string {
  if (process.env.UPDATE_SCREENSHOTS === '1') {
    const dir = resolve(import.meta.dirname, '../../docs/images');
    mkdirSync(dir, { recursive: true });
    return dir;
  }
  return mkdtempSync(join(tmpdir(), 'screenshots-'));
}
