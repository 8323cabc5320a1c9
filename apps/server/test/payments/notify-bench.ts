import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { PaymentGateway } from '../../src/payments/gateway.js';
import { type NotifyReceiver, startNotifyReceiver } from './notify-receiver.js';

/** What a vendor simulator offers the gateway-only notification tests. */
export interface BenchSimulator {
  /** The config an administrator would save for the simulated merchant. */
  config(): Record<string, string>;
  /** Forgets recorded calls and deliveries, and bends nothing any more. */
  reset(): void;
  close(): Promise<void>;
}

/**
 * A gateway wired to its vendor's simulator and to a merchant-side receiver that hands each
 * callback to `verify` as the notify route does. `config` is what `verify` is given: a test may
 * replace it (a broken key) for its own run; every test starts from the simulator's genuine one.
 */
export interface NotifyBench<Simulator extends BenchSimulator> {
  simulator: Simulator;
  /** Untyped, as the registry hands it out: configs arrive as the administrator saved them. */
  gateway: PaymentGateway;
  merchant: NotifyReceiver;
  config: Record<string, string>;
}

/** Registers the file's hooks: start once, reset before each test, stop after all. */
export function useNotifyBench<Simulator extends BenchSimulator>(
  start: () => Promise<Simulator>,
  createGateway: (simulator: Simulator) => PaymentGateway,
): NotifyBench<Simulator> {
  const bench = {} as NotifyBench<Simulator>;
  beforeAll(async () => {
    bench.simulator = await start();
    bench.gateway = createGateway(bench.simulator);
    bench.merchant = await startNotifyReceiver(bench.gateway, () => bench.config);
  });
  afterAll(async () => {
    await bench.merchant?.close();
    await bench.simulator?.close();
  });
  beforeEach(() => {
    bench.simulator.reset();
    bench.merchant.results.length = 0;
    bench.config = bench.simulator.config();
  });
  return bench;
}
