import compression from 'compression';
import type { Response } from 'express';
import { constants } from 'node:zlib';
import { translate, type Locale, type MessageKey } from '../../../packages/client-side/i18n/index.ts';
import { html } from '../../../packages/http/html.ts';

/** The origin a page named for itself, when it is one (`https://shop.example`, no path). */
export function pageOrigin(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value ? value : null;
  } catch {
    return null;
  }
}

/**
 * A small error page in the service's look, for the pages a browser opens, in the payer's language;
 * with `reloadAfterSeconds`, one that loads itself again after that long (the answer the service
 * cannot give yet, with its Retry-After), so that the payer need not.
 */
export function errorPage(
  locale: Locale,
  titleKey: MessageKey,
  messageKey: MessageKey,
  reloadAfterSeconds?: number,
): string {
  const title = translate(locale, titleKey);
  const message = translate(locale, messageKey);
  const reload =
    reloadAfterSeconds === undefined ? '' : html`<meta http-equiv="refresh" content="${reloadAfterSeconds}">`;
  return html`<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">${reload}
<title>${title}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;color:#1e293b;margin:0;padding:24px}h1{font-size:1.2rem}</style>
</head><body><main><h1>${title}</h1><p>${message}</p></main></body></html>`.markup;
}

/**
 * Pages are made for each request, so they are compressed as they are sent: brotli at a middle
 * quality or gzip, as the browser accepts; bodies too small to gain from it as they are.
 */
const compressPage = compression({
  threshold: 512,
  level: 6,
  brotli: { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } },
});

/**
 * Sends a page of the service: HTML, compressed as the browser accepts, never cached (it carries
 * per-request state), with the page's own headers.
 */
export function sendPage(res: Response, status: number, html: string, headers: Record<string, string> = {}): void {
  res.status(status).set({ 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', ...headers });
  compressPage(res.req, res, () => res.send(html));
}
