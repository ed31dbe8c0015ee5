/** An account's two separate worlds: test mode (simulated cards) and live mode. */
export type Mode = 'test' | 'live';
