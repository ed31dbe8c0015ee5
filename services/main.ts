import { ConfigError, loadConfig, type Config } from '../packages/config/environment.ts';
import { armFaults } from '../packages/config/fault-injection.ts';
import { listen } from '../packages/http/serve.ts';
import { keepServingAfterUncaughtErrors } from '../packages/http/uncaught-errors.ts';
import { createLogger } from '../packages/observability/logger.ts';
import { buildApi } from './api/app.ts';
import { createDefaultAccountIfEmpty } from './default-account.ts';
import { openPlatform } from './platform.ts';
import { scheduleCheckpoints } from './audit/checkpoint-schedule.ts';
import { Projector } from './projector/projector.ts';
import { dueWorkSources, jobProcessors } from './worker/job-processors.ts';
import { Worker } from './worker/worker.ts';

/**
 * Starts the service. SERVICE_ROLE=all (the default, `npm start`) runs api, projector and worker
 * in one process; the distributed profile runs each role as its own process.
 */
async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
  const logger = createLogger(config.logLevel);
  if (config.faultInjection.length > 0) {
    armFaults(config.faultInjection);
    logger.warn('fault injection armed: test-mode requests kill this process at these points', {
      points: config.faultInjection,
    });
  }
  const role = config.serviceRole;
  const runs = (wanted: 'api' | 'projector' | 'worker'): boolean => role === 'all' || role === wanted;

  const platform = await openPlatform(config);
  const projector = runs('projector') ? new Projector(platform, logger) : null;
  await projector?.start();
  const checkpoints = projector && scheduleCheckpoints(platform, () => projector.activeRunner !== null, logger);
  await platform.readModels.start();
  if (role === 'all') await createDefaultAccountIfEmpty(platform, (text) => process.stdout.write(text));

  const worker = runs('worker')
    ? new Worker(platform, logger, jobProcessors(platform), dueWorkSources(platform))
    : null;
  worker?.start();

  const server = runs('api')
    ? await listen(buildApi(platform, logger), config.port, config.host, {
        ...(config.tls ? { tls: config.tls } : {}),
        timeoutsMs: config.httpTimeoutsMs,
        onError: (error) => logger.error('HTTP server error; still serving', { error }),
      })
    : null;
  // From here on no request can end the process: see keepServingAfterUncaughtErrors.
  keepServingAfterUncaughtErrors(logger);
  logger.info('service started', {
    role,
    port: server?.port ?? null,
    protocol: server?.protocol ?? null,
    profile: config.eventStoreUrl ? 'distributed' : 'embedded',
  });

  let stopping = false;
  const shutdown = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down', { signal });
    const deadline = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs + 5000);
    deadline.unref();
    await server?.close(config.shutdownTimeoutMs);
    await worker?.stop();
    checkpoints?.stop();
    await projector?.stop();
    await platform.close();
    logger.info('stopped');
    process.exit(0);
  };
  // A renewed certificate is picked up without a restart.
  process.on('SIGHUP', () => {
    if (!server || server.protocol !== 'https') return;
    try {
      server.reloadTls();
      logger.info('TLS certificate reloaded');
    } catch (error) {
      logger.error('TLS certificate reload failed; keeping the current one', { error });
    }
  });
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error: Error) => {
  console.error(`Failed to start: ${error.message}`);
  process.exit(1);
});
