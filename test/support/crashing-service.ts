import { join } from 'node:path';
import { expect } from 'chai';
import type { FaultPoint } from '../../packages/config/fault-injection.ts';
import type { RecordedEvent } from '../../packages/eventstore/event-store.ts';
import { SqliteEventStore } from '../../packages/eventstore/sqlite-event-store.ts';
import { ApiClient } from './api-client.ts';
import type { AccountKeys, ServiceProcess } from './service-process.ts';
import { useService, type ServiceFixtureOptions } from './use-service.ts';

export interface CrashingService {
  /** A client with the default account's test secret key, following the service across restarts. */
  readonly api: ApiClient;
  readonly dataDir: string;
  /** The default account's id. */
  readonly accountId: string;
  /** The default account's keys. */
  readonly keys: AccountKeys;
  /** Restarts the service (unarmed) on the same data, stopping it first if it runs. */
  start(): Promise<ApiClient>;
  stop(): Promise<void>;
  kill(): Promise<void>;
  /** Restarts the service armed to die at `point`, sends the request, and sees it die there, unanswered. */
  crashAt(point: FaultPoint, send: (api: ApiClient) => Promise<unknown>): Promise<void>;
  /** Reads the log directly (the service may keep running: SQLite lets readers in beside it). */
  stream(streamId: string): Promise<RecordedEvent[]>;
}

/**
 * The service of a describe block (useService), which a test kills at a chosen point of a request
 * through the FAULT_INJECTION test hook and restarts on the same data, as a merchant's retrying
 * client sees it. Call it in the describe body.
 */
export function useCrashingService(options: ServiceFixtureOptions = {}): CrashingService {
  // Killed on purpose: a process of its own.
  const fixture = useService({ ...options, ownProcess: true });
  let running = true;

  async function stop(): Promise<void> {
    if (running) await fixture.service.stop();
    running = false;
  }

  async function start(env: Record<string, string> = {}): Promise<ServiceProcess> {
    await stop();
    const started = await fixture.start({ env });
    running = true;
    return started;
  }

  return {
    api: fixture.api,
    get dataDir() {
      return fixture.service.dataDir;
    },
    get accountId() {
      return fixture.keys.id;
    },
    keys: fixture.keys,
    async start() {
      await start();
      return fixture.api;
    },
    stop,
    async kill() {
      if (running) await fixture.service.kill();
      running = false;
    },
    async crashAt(point, send) {
      const doomed = await start({ FAULT_INJECTION: `crash:${point}` });
      const answer = await send(new ApiClient(doomed.baseUrl, fixture.keys.testSecretKey)).then(
        (response) => ({ answered: response }),
        (error: Error) => ({ failed: error.message }),
      );
      await fixture.service.kill();
      running = false;
      expect(answer, 'the connection dies with the process').to.have.property('failed');
      expect(doomed.output()).to.include(`FAULT INJECTION: crash at ${point}`);
    },
    async stream(streamId) {
      const events = new SqliteEventStore(join(fixture.service.dataDir, 'events.sqlite'));
      try {
        return await events.readStream(streamId);
      } finally {
        await events.close();
      }
    },
  };
}
