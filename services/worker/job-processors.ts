import type { Platform } from '../platform.ts';
import type { DueWorkSource } from './due-work.ts';
import type { JobProcessor } from './worker.ts';

/** Every queue the worker role serves. Each resource that needs background work adds its processor here. */
export const jobProcessors = (_platform: Platform): JobProcessor[] => [];

/** Every source of due work the scheduler scans. Each resource with background work adds its source here. */
export const dueWorkSources = (_platform: Platform): DueWorkSource[] => [];
