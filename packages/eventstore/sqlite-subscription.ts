import type { EventHandler, RecordedEvent, SubscribeOptions, Subscription } from './event-store.ts';
import { reportSubscriptionFailure } from './subscription-failure.ts';

/**
 * One subscriber's loop: read a batch after the checkpoint, hand it over event by event, and when
 * there is nothing left, sleep until the store wakes it.
 */
export class SqliteSubscription implements Subscription {
  private checkpoint: number;
  private stopped = false;
  private wakeUp: (() => void) | undefined;
  private readonly finished: Promise<void>;

  constructor(
    private readonly readBatchAfter: (position: number) => RecordedEvent[],
    private readonly onDisk: (batch: readonly RecordedEvent[]) => Promise<void>,
    private readonly handler: EventHandler,
    private readonly options: SubscribeOptions,
    private readonly onFinished: () => void,
  ) {
    this.checkpoint = options.afterPosition ?? 0;
    // Start on a later tick so the handler is never called before subscribeToAll has returned.
    this.finished = Promise.resolve().then(() => this.run());
  }

  /**
   * Resolves once the handler will not be called again: after the call in progress, if any, has
   * settled. A handler may call it but must not await it, since it would wait for itself.
   */
  async unsubscribe(): Promise<void> {
    this.stopped = true;
    this.wake();
    await this.finished;
  }

  wake(): void {
    this.wakeUp?.();
    this.wakeUp = undefined;
  }

  private async run(): Promise<void> {
    try {
      while (!this.stopped) {
        const batch = this.readBatchAfter(this.checkpoint);
        if (batch.length === 0) {
          // The read above is synchronous, so no append can slip in between it and this wait.
          await new Promise<void>((resolve) => (this.wakeUp = resolve));
          continue;
        }
        await this.onDisk(batch);
        for (const event of batch) {
          if (this.stopped) return;
          await this.handler(event);
          this.checkpoint = event.position;
        }
      }
    } catch (error) {
      this.stopped = true;
      reportSubscriptionFailure(this.options, error);
    } finally {
      this.onFinished();
    }
  }
}
