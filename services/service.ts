import type { RequestListener, ServerResponse } from 'node:http';
import type { Config } from '../packages/config/environment.ts';
import { appMessages } from '../packages/http/app-messages.ts';
import { listen, type RunningServer } from '../packages/http/serve.ts';
import type { Logger } from '../packages/observability/logger.ts';
import { buildApi } from './api/app.ts';
import { scheduleCheckpoints } from './audit/checkpoint-schedule.ts';
import { createDefaultAccountIfEmpty } from './default-account.ts';
import { openPlatform } from './platform.ts';
import { Projector } from './projector/projector.ts';
import { dueWorkSources, jobProcessors } from './worker/job-processors.ts';
import { Worker } from './worker/worker.ts';

/** The roles of the service that this process runs, started; see `main.ts` for the process around them. */
export interface RunningService {
  /** The API's server; null when this process runs no API role. */
  server: RunningServer | null;
  /** Re-reads the API's TLS certificate and key (after a renewal) and logs whether that worked. */
  reloadTls(): void;
  /** Stops taking requests, lets the work in hand finish and closes the stores. */
  stop(): Promise<void>;
}

/**
 * Opens the platform from `config` and starts the roles SERVICE_ROLE names (api, projector,
 * worker; all three by default). Nothing here touches the process (signals, exit, environment):
 * tests start several services in one process, each with its own configuration and logger.
 * `print` shows the default account's keys, created on the first start of an empty installation.
 */
export async function runService(
  config: Config,
  logger: Logger,
  print: (text: string) => void,
): Promise<RunningService> {
  const role = config.serviceRole;
  const runs = (wanted: 'api' | 'projector' | 'worker'): boolean => role === 'all' || role === wanted;

  const platform = await openPlatform(config, { logger });
  // The port is taken before anything waits (the projections lease, the read models): a port in
  // use stops the start at once. Until the roles run, requests get 503 with Retry-After.
  let api: RequestListener | null = null;
  let server: RunningServer | null = null;
  const messages = appMessages();
  if (runs('api')) {
    try {
      server = await listen(
        (request, response) => (api ? api(request, response) : answerStarting(response)),
        config.port,
        config.host,
        {
          ...(config.tls ? { tls: config.tls } : {}),
          timeoutsMs: config.httpTimeoutsMs,
          messages,
          onError: (error) => logger.error('HTTP server error; still serving', { error }),
        },
      );
    } catch (error) {
      await platform.close();
      if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new PortInUseError(config.port, config.host);
      throw error;
    }
  }
  const projector = runs('projector') ? new Projector(platform, logger) : null;
  await projector?.start();
  const checkpoints = projector && scheduleCheckpoints(platform, () => projector.activeRunner !== null, logger);
  await platform.readModels.start();
  if (role === 'all') await createDefaultAccountIfEmpty(platform, print);

  const worker = runs('worker')
    ? new Worker(platform, logger, jobProcessors(platform), dueWorkSources(platform))
    : null;
  worker?.start();

  if (server) {
    const app = buildApi(platform, logger);
    messages.adopt(app);
    api = app;
  }
  logger.info('service started', {
    role,
    port: server?.port ?? null,
    protocol: server?.protocol ?? null,
    profile: config.eventStoreUrl ? 'distributed' : 'embedded',
  });

  return {
    server,
    reloadTls() {
      if (!server || server.protocol !== 'https') return;
      try {
        server.reloadTls();
        logger.info('TLS certificate reloaded');
      } catch (error) {
        logger.error('TLS certificate reload failed; keeping the current one', { error });
      }
    },
    async stop() {
      await server?.close(config.shutdownTimeoutMs);
      await worker?.stop();
      checkpoints?.stop();
      await projector?.stop();
      await platform.close();
    },
  };
}

/** Another process (or another service of this one) listens on the configured port. */
export class PortInUseError extends Error {
  constructor(port: number, host: string) {
    super(`port ${port} on ${host} is in use by another process (PORT, HOST); not started`);
  }
}

/** The answer while the roles start (the projections lease, the read models): retry shortly. */
function answerStarting(response: ServerResponse): void {
  response.writeHead(503, { 'content-type': 'application/json; charset=utf-8', 'retry-after': '1' });
  response.end(JSON.stringify({ error: { type: 'gateway_error', message: 'The service is starting; retry shortly' } }));
}
