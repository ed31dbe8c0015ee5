import { createRequire } from 'node:module';
import type * as PromClient from 'prom-client';

/**
 * prom-client's metric classes and registry, each loaded from its own file. The package's entry
 * point also loads its default process metrics (and with them the OpenTelemetry API, 51 modules),
 * the Pushgateway client and the cluster aggregator, none of which the service uses: measured
 * alone, 1.4 MB of V8 heap and 12 MB resident against 0.1 and 0.7 for these four
 * (`docs/benchmarks.md`, "Memory").
 */
const require = createRequire(import.meta.url);

export const Counter = require('prom-client/lib/counter') as typeof PromClient.Counter;
export const Histogram = require('prom-client/lib/histogram') as typeof PromClient.Histogram;
export const Gauge = require('prom-client/lib/gauge') as typeof PromClient.Gauge;
export const Registry = require('prom-client/lib/registry') as typeof PromClient.Registry;
export type Registry = PromClient.Registry;
