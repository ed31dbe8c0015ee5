import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { Queue } from 'bullmq';
import type { Router } from 'express';
import { OBSERVED_QUEUES } from '../store-gauges.ts';

/** bull-board over the service's queues, mounted at `/console/queues`. */
export function bullBoardRouter(redisUrl: string): Router {
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath('/console/queues');
  createBullBoard({
    queues: OBSERVED_QUEUES.map(
      (name) => new BullMQAdapter(new Queue(name, { connection: { url: redisUrl }, prefix: 'payments' })),
    ),
    // @bull-board/express carries its own copy of @bull-board/api (a patch version apart): the same
    // adapter shape, declared twice, so the compiler cannot see they match.
    serverAdapter: serverAdapter as unknown as Parameters<typeof createBullBoard>[0]['serverAdapter'],
  });
  return serverAdapter.getRouter() as Router;
}
