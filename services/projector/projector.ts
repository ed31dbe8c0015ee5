import type { Logger } from 'winston';
import { ProjectionRunner } from '../../packages/projection-runtime/projection-runner.ts';
import type { Platform } from '../platform.ts';
import { SqliteReadFiles } from '../../packages/readstore/sqlite-read-files.ts';
import { buildEmptyReadStore, needsBuild } from './empty-read-store-build.ts';
import { projectionsLease, type Lease } from './lease.ts';
import { serveSwitchRequest } from './read-store-switch.ts';

const RENEW_EVERY_MS = 3_000;
/** How often the lease holder looks for a rebuilt read store file to serve. */
const SWITCH_POLL_MS = 250;

/**
 * The projector process role: holds the projections lease, runs every projection from its
 * checkpoint, serves operators' rebuild requests, and gives the lease up on stop.
 */
export class Projector {
  readonly lease: Lease;
  private runner: ProjectionRunner | null = null;
  private timer: NodeJS.Timeout | null = null;
  private switchTimer: NodeJS.Timeout | null = null;
  private switching = false;
  private ticking = false;
  /** Building an empty read store before the projections run (`empty-read-store-build.ts`). */
  private building: Promise<void> | null = null;
  private readonly stopBuild = new AbortController();
  private stopped = false;
  /** The other holder this process last said it waits for: said once per holder, not every tick. */
  private waitingFor: string | null = null;
  private readonly started: Promise<void>;
  private markStarted!: () => void;

  constructor(
    private readonly platform: Platform,
    private readonly logger: Logger,
  ) {
    this.lease = projectionsLease(platform.stateStore);
    this.started = new Promise((resolve) => (this.markStarted = resolve));
  }

  /** Starts trying to take the lease; resolves once this process runs the projections. */
  async start(): Promise<void> {
    await this.tick();
    // Not unref'd: a process waiting for the lease must stay alive until it gets it.
    this.timer = setInterval(() => void this.tick(), RENEW_EVERY_MS);
    const readStore = this.platform.readStore;
    if (readStore instanceof SqliteReadFiles) {
      this.switchTimer = setInterval(() => void this.serveSwitch(readStore), SWITCH_POLL_MS);
      this.switchTimer.unref();
    }
    await this.started;
  }

  /** The runner while this process holds the lease. */
  get activeRunner(): ProjectionRunner | null {
    return this.runner;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.switchTimer) clearInterval(this.switchTimer);
    this.stopBuild.abort();
    await this.building;
    await this.runner?.stop();
    this.runner = null;
    await this.lease.release().catch(() => undefined);
  }

  /** A full rebuild made by the CLI asks the lease holder to switch to its file (`read-store-switch.ts`). */
  private async serveSwitch(readStore: SqliteReadFiles): Promise<void> {
    const runner = this.runner;
    if (!runner || this.switching || this.stopped) return;
    this.switching = true;
    try {
      const file = await serveSwitchRequest(readStore, runner);
      if (file) this.logger.info('read store rebuilt and switched', { file });
    } catch (error) {
      this.logger.error('read store switch refused', { error: (error as Error).message });
    } finally {
      this.switching = false;
    }
  }

  /**
   * Another live process (an `all` or `projector` process on the same stores) runs the
   * projections: this one says so at once, and waits to take over when that one stops or dies.
   */
  private async sayWhatItWaitsFor(): Promise<void> {
    const holder = await this.lease.currentHolder();
    if (holder === null || holder === this.waitingFor) return;
    this.waitingFor = holder;
    this.logger.warn(
      'waiting for the projections lease: another process runs the projections on these stores; this one takes over when it stops',
      { holder, role: 'projector' },
    );
  }

  private async tick(): Promise<void> {
    // A tick may outlast the interval: one at a time.
    if (this.stopped || this.ticking) return;
    this.ticking = true;
    try {
      if (this.building) {
        // The build renews the lease itself, and ends when it is lost.
        return;
      }
      if (this.runner) {
        if (await this.lease.renew()) return;
        this.logger.warn('projections lease lost; stopping projections', { holder: this.lease.holder });
        await this.runner.stop();
        this.runner = null;
      }
      if (!(await this.lease.tryAcquire())) {
        await this.sayWhatItWaitsFor();
        return;
      }
      const readStore = this.platform.readStore;
      if (readStore instanceof SqliteReadFiles && (await needsBuild(this.platform, readStore))) {
        // The roles start meanwhile: the API answers reads 503 until the runner has caught up, as
        // during any catch-up, and `/health` answers 200 (a long build is not a hung process).
        this.building = this.buildThenRun(readStore).finally(() => (this.building = null));
        this.markStarted();
        return;
      }
      await this.runProjections();
    } catch (error) {
      this.logger.error('projector tick failed', { error: (error as Error).message });
    } finally {
      this.ticking = false;
    }
  }

  /** Builds the empty read store in a process of its own, then runs the projections on it (or on the empty store, the build failed). */
  private async buildThenRun(readStore: SqliteReadFiles): Promise<void> {
    try {
      await buildEmptyReadStore(this.platform, readStore, this.lease, this.logger, this.stopBuild.signal);
      if (this.stopped) return;
      if (!(await this.lease.renew())) {
        this.logger.warn('projections lease lost during the read store build', { holder: this.lease.holder });
        return;
      }
      await this.runProjections();
    } catch (error) {
      this.logger.error('projector start failed', { error: (error as Error).message });
    }
  }

  private async runProjections(): Promise<void> {
    const runner = new ProjectionRunner(this.platform.events, this.platform.readStore, this.platform.projections, {
      onError: (error) =>
        this.logger.error('projection failed; restarting from checkpoints', {
          error: error.message,
          stack: error.stack,
        }),
    });
    runner.on('switched', (projection, generation) =>
      this.logger.info('projection rebuilt and switched', { projection, generation }),
    );
    await runner.start();
    this.platform.readModels.attach(runner);
    this.runner = runner;
    this.logger.info('projections running', { holder: this.lease.holder });
    this.markStarted();
  }
}
