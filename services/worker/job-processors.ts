import type { Platform } from '../platform.ts';
import type { JobProcessor } from './worker.ts';

/** Every queue the worker role serves. Each resource that needs background work adds its processor here. */
export const jobProcessors = (_platform: Platform): JobProcessor[] => [];
