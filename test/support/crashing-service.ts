import { join } from 'node:path';
import { expect } from 'chai';
import type { FaultPoint } from '../../packages/config/fault-injection.ts';
import type { RecordedEvent } from '../../packages/eventstore/event-store.ts';
import { SqliteEventStore } from '../../packages/eventstore/sqlite-event-store.ts';
import { ApiClient } from './api-client.ts';
import { removeDataDir, startService, type AccountKeys, type ServiceProcess } from './service-process.ts';

/**
 * One data directory and a service that a test kills at a chosen point of a request (through the
 * FAULT_INJECTION test hook) and restarts on the same data, as a merchant's retrying client sees it.
 */
export class CrashingService {
  private running: ServiceProcess | undefined;

  private constructor(
    readonly dataDir: string,
    readonly keys: AccountKeys,
  ) {}

  static async create(): Promise<CrashingService> {
    const first = await startService();
    await first.stop();
    return new CrashingService(first.dataDir, first.keys!);
  }

  /** Starts the service armed to die at `point`, sends the request, and sees it die there, unanswered. */
  async crashAt(point: FaultPoint, send: (api: ApiClient) => Promise<unknown>): Promise<void> {
    const doomed = await startService({ dataDir: this.dataDir, env: { FAULT_INJECTION: `crash:${point}` } });
    const answer = await send(new ApiClient(doomed.baseUrl, this.keys.testSecretKey)).then(
      (response) => ({ answered: response }),
      (error: Error) => ({ failed: error.message }),
    );
    await doomed.kill();
    expect(answer, 'the connection dies with the process').to.have.property('failed');
    expect(doomed.output()).to.include(`FAULT INJECTION: crash at ${point}`);
  }

  /** (Re)starts the service on the same data, unarmed. */
  async start(): Promise<ApiClient> {
    await this.stop();
    this.running = await startService({ dataDir: this.dataDir });
    return new ApiClient(this.running.baseUrl, this.keys.testSecretKey);
  }

  async kill(): Promise<void> {
    await this.running?.kill();
    this.running = undefined;
  }

  async stop(): Promise<void> {
    await this.running?.stop();
    this.running = undefined;
  }

  /** Reads the log directly (the service may keep running: SQLite lets readers in beside it). */
  async stream(streamId: string): Promise<RecordedEvent[]> {
    const events = new SqliteEventStore(join(this.dataDir, 'events.sqlite'));
    try {
      return await events.readStream(streamId);
    } finally {
      await events.close();
    }
  }

  async remove(): Promise<void> {
    await this.stop();
    removeDataDir(this.dataDir);
  }
}
