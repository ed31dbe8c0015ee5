import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

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
 * The test process's one Chromium, started by the first `launchBrowser` and ended with the
 * process: each `launchBrowser` is a context of its own in it (its own cookies, storage, cache and
 * language, as a fresh profile would be), so that a browser test pays Chromium's start once per
 * process rather than once per browser it opens.
 */
let shared: Promise<Browser> | null = null;

function sharedChromium(): Promise<Browser> {
  if (shared) return shared;
  const launched = chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  shared = launched;
  // One that failed to start, crashed or was closed is started again by the next caller.
  const forget = (): void => {
    if (shared === launched) shared = null;
  };
  launched.then((browser) => browser.once('disconnected', forget), forget);
  return launched;
}

/**
 * A fresh headless browser as a payer would have it: nothing stored from another test; `locale`
 * is its language (`navigator.language`, `Accept-Language`).
 */
export async function launchBrowser(
  options: { locale?: string; viewport?: { width: number; height: number } } = {},
): Promise<HeadlessBrowser> {
  const browser = await sharedChromium();
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1000, height: 800 },
    ...(options.locale ? { locale: options.locale } : {}),
  });
  return {
    context,
    newPage: () => context.newPage(),
    close: () => context.close(),
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
