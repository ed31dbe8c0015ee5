import { ConfigError, loadConfig, type Config } from '../packages/config/environment.ts';
import { armFaults } from '../packages/config/fault-injection.ts';
import { keepServingAfterUncaughtErrors } from '../packages/http/uncaught-errors.ts';
import { flushLogLines } from '../packages/observability/log-lines.ts';
import { createLogger } from '../packages/observability/logger.ts';
import { PortInUseError, runService, type RunningService } from './service.ts';

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
  let service: RunningService;
  try {
    service = await runService(config, logger, (text) => process.stdout.write(text));
  } catch (error) {
    if (!(error instanceof PortInUseError)) throw error;
    logger.error(error.message);
    flushLogLines();
    process.exit(1);
  }
  // From here on no request can end the process: see keepServingAfterUncaughtErrors.
  keepServingAfterUncaughtErrors(logger);

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
    await service.stop();
    logger.info('stopped');
    process.exit(0);
  };
  // A renewed certificate is picked up without a restart.
  process.on('SIGHUP', () => service.reloadTls());
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error: Error) => {
  console.error(`Failed to start: ${error.message}`);
  process.exit(1);
});
