import { Registry, collectDefaultMetrics, Counter, Histogram, Gauge } from 'prom-client';

export { Registry, Counter, Histogram, Gauge };

/** One registry per service; default process metrics carry the service name as prefix. */
export function createRegistry(service: string): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: `${service}_` });
  return registry;
}

export const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
