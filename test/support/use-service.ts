import { ApiClient } from './api-client.ts';
import { startInProcessService } from './in-process-service.ts';
import {
  removeDataDir,
  startService,
  type AccountKeys,
  type ServiceProcess,
  type StartOptions,
} from './service-process.ts';

export interface ServiceFixtureOptions extends StartOptions {
  /**
   * 'before' (default): one service for the whole describe block, started before its first test and
   * stopped, its data directory removed, after the last. 'test': each test calls start() itself
   * (when its settings are only known inside it), and the service is stopped and removed after it.
   * A `dataDir` given here is used and kept: only a directory the fixture made is removed.
   */
  startedBy?: 'before' | 'test';
  /**
   * false (default): the first start runs the service inside the test process; true: in a child
   * process of its own (the compiled build), for tests that kill() or signal() it. Restarts and
   * starts with FAULT_INJECTION always get a process of their own.
   */
  ownProcess?: boolean;
}

export interface ServiceFixture {
  /** The service started last: its URL, data directory and output, stop() and kill(). */
  readonly service: ServiceProcess;
  /** Keys of the default account, printed at the first start of the data directory. */
  readonly keys: AccountKeys;
  /** A client with the default account's test secret key, following the service across restarts. */
  readonly api: ApiClient;
  /**
   * Starts the service: on a fresh data directory the first time, on the same one after stop() or
   * kill() (a restart). `env` is added to the fixture's for this start.
   */
  start(options?: { env?: Record<string, string> }): Promise<ServiceProcess>;
}

/**
 * The real service for the tests of a describe block, with a client for it and the clean-up after.
 * It runs inside the test process (real HTTP on a free port, real files in its own data
 * directory); restarts, and every start with `ownProcess: true`, run it as a child process. Call it in the describe body; the objects it returns stand for the service
 * that the hooks (or start()) run, so they are used inside tests and hooks:
 *
 *     describe('charges', function () {
 *       const { api, service } = useService({ env: { SCHEDULER_INTERVAL_MS: '100' } });
 *       it('…', async () => { await api.post('/charges', …); });
 *     });
 */
export function useService(options: ServiceFixtureOptions = {}): ServiceFixture {
  const { startedBy = 'before', ownProcess = false, ...startOptions } = options;
  let current: ServiceProcess | undefined;
  let dataDir: string | undefined;
  let accountKeys: AccountKeys | undefined;
  /** Set by stop() and kill() through the fixture: start() then restarts on the same data directory. */
  let stopped = false;

  const running = (): ServiceProcess => {
    if (current) return current;
    throw new Error(
      startedBy === 'before'
        ? 'useService(): the service starts in a before hook; use it inside tests and hooks'
        : 'useService(): call start() in the test first',
    );
  };
  const keysOf = (): AccountKeys => {
    running();
    if (accountKeys) return accountKeys;
    throw new Error('useService(): the data directory was not fresh, so no default account keys were printed');
  };

  async function start(extra: { env?: Record<string, string> } = {}): Promise<ServiceProcess> {
    if (current && !stopped) throw new Error('useService(): stop() or kill() the running service first');
    const env = { ...startOptions.env, ...extra.env };
    // A restart is a new process, as it is in production: nothing of the last run survives in memory.
    const inOwnProcess = ownProcess || current !== undefined || Boolean(env.FAULT_INJECTION);
    current = await (inOwnProcess ? startService : startInProcessService)({
      ...startOptions,
      dataDir: dataDir ?? startOptions.dataDir,
      env,
    });
    stopped = false;
    dataDir = current.dataDir;
    accountKeys ??= current.keys ?? undefined;
    return current;
  }

  async function cleanUp(): Promise<void> {
    const last = current;
    current = undefined;
    dataDir = undefined;
    accountKeys = undefined;
    if (!last) return;
    await last.stop();
    // A data directory the caller gave is the caller's to remove.
    if (startOptions.dataDir === undefined) removeDataDir(last.dataDir);
  }

  if (startedBy === 'before') {
    before('start the service', () => start());
    after('stop the service and remove its data', cleanUp);
  } else {
    afterEach('stop the service and remove its data', cleanUp);
  }

  const service: ServiceProcess = {
    get baseUrl() {
      return running().baseUrl;
    },
    get dataDir() {
      return running().dataDir;
    },
    get pid() {
      return running().pid;
    },
    get keys() {
      return running().keys;
    },
    output: () => running().output(),
    stop: () => {
      stopped = true;
      return running().stop();
    },
    kill: () => {
      stopped = true;
      return running().kill();
    },
    signal: (signal) => running().signal(signal),
  };
  const keys: AccountKeys = {
    get id() {
      return keysOf().id;
    },
    get testSecretKey() {
      return keysOf().testSecretKey;
    },
    get testPublicKey() {
      return keysOf().testPublicKey;
    },
    get liveSecretKey() {
      return keysOf().liveSecretKey;
    },
    get livePublicKey() {
      return keysOf().livePublicKey;
    },
  };
  const api = new ApiClient(
    () => running().baseUrl,
    () => keysOf().testSecretKey,
  );
  return { service, keys, api, start };
}
