import express, { Router, type Response } from 'express';
import { NotFoundError } from '../../../packages/domain/errors.ts';
import { publicObject } from '../../../projections/views/object-view.ts';
import { ObjectStreams } from '../../api/object-streams.ts';
import { objectResources } from '../../resources/registries.ts';
import type { Platform } from '../../platform.ts';
import { SESSION_COOKIE, type OperatorAccess } from '../operator-access.ts';
import {
  consoleCss,
  consoleJs,
  deliveriesSection,
  loginPage,
  page,
  projectionsSection,
  queuesSection,
  openCircuitsSection,
  readStoreBuildSection,
  streamBrowserSection,
  streamPage,
  tamperEvidenceSection,
  backupsSection,
} from './console-html.ts';
import { readStoreBuildText } from '../../projector/read-store-build-progress.ts';
import { OperatorState } from './operator-state.ts';
import { html as markup, joinHtml } from '../../../packages/http/html.ts';

/** Pages are never cached, framed or sniffed; scripts and styles come from the console only. */
const SECURITY_HEADERS = {
  'Cache-Control': 'no-store',
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

/**
 * The operator console (`docs/operations.md`, "Operator console"): server-rendered pages under
 * `/console`. A browser signs in with the operator token once; the session cookie (HttpOnly,
 * SameSite=Strict, so no other site can send it along with a form) then carries the access.
 */
export function consoleRoutes(platform: Platform, access: OperatorAccess): Router {
  const router = Router();
  const state = new OperatorState(platform);
  const streams = new ObjectStreams(platform.events, platform.readModels, objectResources);
  const toLogin = (res: Response) => res.redirect(303, '/console/login');
  const signedIn = access.require(toLogin);
  const html = (res: Response, status: number, body: string) =>
    res.status(status).set(SECURITY_HEADERS).type('html').send(body);
  const requestIdOf = (res: Response): string => String(res.getHeader('X-Request-Id') ?? 'console');

  router.get('/console/console.css', (_req, res) => res.set(SECURITY_HEADERS).type('css').send(consoleCss));
  router.get('/console/console.js', (_req, res) => res.set(SECURITY_HEADERS).type('js').send(consoleJs));

  router.get('/console/login', (_req, res) => html(res, 200, loginPage(null)));
  router.post('/console/login', express.urlencoded({ extended: false, limit: '4kb' }), (req, res) => {
    const token = (req.body as Record<string, unknown> | undefined)?.token;
    if (typeof token !== 'string' || !access.isToken(token)) {
      html(res, 401, loginPage('That is not the operator token.'));
      return;
    }
    res.cookie(SESSION_COOKIE, access.sessionValue, {
      httpOnly: true,
      sameSite: 'strict',
      secure: req.secure,
      path: '/console',
    });
    res.redirect(303, '/console');
  });
  router.post('/console/logout', (_req, res) => {
    res.clearCookie(SESSION_COOKIE, { path: '/console' });
    res.redirect(303, '/console/login');
  });

  router.get('/console', signedIn, async (req, res) => {
    const resent = typeof req.query.resent === 'string' ? req.query.resent : null;
    const notice =
      resent === null
        ? null
        : req.query.ok === '1'
          ? `Resending ${resent}: its next attempt is due now.`
          : `${resent} is not a failed delivery.`;
    const [underWay, projections, queues, circuits, deliveries, evidence, backups] = await Promise.all([
      state.readStoreBuildUnderWay(),
      state.projections(),
      state.queues(),
      state.openCircuits(),
      state.failedDeliveries(),
      state.tamperEvidence(),
      state.backups(),
    ]);
    html(
      res,
      200,
      page(
        'Overview',
        joinHtml(
          [
            ...(underWay?.status ? [readStoreBuildSection(underWay.status)] : []),
            projectionsSection(projections, { building: underWay !== null }),
            queuesSection(queues, Boolean(platform.config.redisUrl)),
            openCircuitsSection(circuits),
            deliveriesSection(deliveries, notice),
            tamperEvidenceSection(evidence),
            backupsSection(backups),
            streamBrowserSection(),
          ],
          '\n',
        ),
      ),
    );
  });

  router.get('/console/projections.json', signedIn, async (_req, res) => {
    res.set('Cache-Control', 'no-store').json(await state.projections());
  });

  router.get('/console/read-store-build.json', signedIn, async (_req, res) => {
    const build = await state.readStoreBuild();
    // `text`: the progress line as the page writes it, so that the page's script shows the server's words.
    res.set('Cache-Control', 'no-store').json(build && { ...build, text: readStoreBuildText(build) });
  });

  router.post('/console/projections/:name/rebuild', signedIn, async (req, res) => {
    const name = String(req.params.name);
    const outcome = await state.requestRebuild(name);
    if (outcome === 'unknown') {
      html(res, 404, page('Not found', markup`<p>No projection named ${name}.</p>`));
      return;
    }
    if (outcome === 'building') {
      html(
        res,
        409,
        page(
          'Read store build under way',
          markup`<p>The whole read store is being built from the log; rebuild ${name} once it has switched.</p>`,
        ),
      );
      return;
    }
    res.redirect(303, '/console#projections');
  });

  router.post('/console/deliveries/:deliveryId/resend', signedIn, async (req, res) => {
    const deliveryId = String(req.params.deliveryId);
    const ok = await state.resend(deliveryId, requestIdOf(res));
    res.redirect(303, `/console?resent=${encodeURIComponent(deliveryId)}&ok=${ok ? '1' : '0'}#deliveries`);
  });

  router.get('/console/streams', signedIn, async (req, res) => {
    const objectId = typeof req.query.objectId === 'string' ? req.query.objectId.trim() : '';
    const asOfText = typeof req.query.asOf === 'string' ? req.query.asOf.trim() : '';
    if (asOfText !== '' && !/^\d{1,12}$/.test(asOfText)) {
      html(res, 400, streamPage(objectId, asOfText, null, 'As of must be a Unix time in seconds.'));
      return;
    }
    const asOf = asOfText === '' ? null : Number(asOfText);
    const tenant = objectId ? await streams.tenantOf(objectId) : null;
    if (!tenant) {
      html(res, 404, streamPage(objectId, asOfText, null, null));
      return;
    }
    try {
      const { events } = await streams.history(objectId, tenant);
      const object = asOf === null ? null : await streams.objectAsOf(objectId, tenant, asOf);
      html(res, 200, streamPage(objectId, asOfText, { events, object: object && publicObject(object), asOf }, null));
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      html(res, 404, streamPage(objectId, asOfText, null, null));
    }
  });

  // The BullMQ profile: bull-board over the service's queues, behind the same sign-in. Loaded on
  // the first visit: bull-board and BullMQ take memory that a process never showing it should not hold.
  const redisUrl = platform.config.redisUrl;
  if (redisUrl) {
    let bullBoard: Promise<Router> | undefined;
    router.use('/console/queues', signedIn, bullBoardHeaders, (req, res, next) => {
      bullBoard ??= import('./bull-board-router.ts').then((module) => module.bullBoardRouter(redisUrl));
      bullBoard.then((board) => board(req, res, next), next);
    });
  }
  return router;
}

/**
 * bull-board's page asks Google for its fonts: the policy keeps the browser from fetching anything
 * but the board's own files (it falls back to local fonts), like the rest of the console.
 */
const bullBoardHeaders: express.RequestHandler = (_req, res, next) => {
  res.set({
    ...SECURITY_HEADERS,
    'Content-Security-Policy':
      "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'self'",
  });
  next();
};
