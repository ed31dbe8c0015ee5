/**
 * How hard the reliability suite pushes. `npm test` runs the small setting (each file well under a
 * minute on a shared CI machine); `npm run test:soak` sets RELIABILITY_SCALE=soak for a long run.
 */
export interface ReliabilityScale {
  name: 'ci' | 'soak';
  /** Fuzzed requests against one running service. */
  fuzzRequests: number;
  /** Lengths at which a well-formed upload is cut, besides the fixed malformed bodies, sent to every route. */
  uploadCutPoints: number;
  /** kill -9 cycles under write load, and the acknowledged writes to wait for in each. */
  killCycles: number;
  writesPerCycle: number;
  /** Concurrent writers during a kill cycle. */
  writers: number;
  /** Noisy neighbours: events per account at a steady rate, one every `eventIntervalMs`. */
  webhookEvents: number;
  eventIntervalMs: number;
  /** Endpoints that accept connections and never answer, in the healthy endpoint's account and in another. */
  hangingInSameAccount: number;
  hangingInOtherAccount: number;
  /** The WEBHOOK_TIMEOUT_MS values each profile runs with. */
  webhookTimeoutsMs: number[];
  /**
   * Card numbers in free text and keys: besides the fixed cases (every length, place and spelling),
   * every test card number in every spelling.
   */
  spellEveryTestCard: boolean;
  /** Multi-stream requests killed at each crash point: runs of each case, each retried after the restart. */
  crashRunsPerCase: number;
  /** Live-mode payments through a processor: kill -9 of the service at random moments under load. */
  liveKills: number;
}

const SCALES: Record<ReliabilityScale['name'], ReliabilityScale> = {
  ci: {
    name: 'ci',
    fuzzRequests: 1500,
    uploadCutPoints: 3,
    killCycles: 2,
    writesPerCycle: 60,
    writers: 4,
    webhookEvents: 40,
    eventIntervalMs: 150,
    hangingInSameAccount: 10,
    hangingInOtherAccount: 30,
    webhookTimeoutsMs: [2_000],
    spellEveryTestCard: false,
    crashRunsPerCase: 1,
    liveKills: 3,
  },
  soak: {
    name: 'soak',
    fuzzRequests: 20_000,
    uploadCutPoints: 60,
    killCycles: 12,
    writesPerCycle: 1250,
    writers: 8,
    webhookEvents: 180,
    eventIntervalMs: 300,
    hangingInSameAccount: 10,
    hangingInOtherAccount: 30,
    webhookTimeoutsMs: [2_000, 10_000],
    spellEveryTestCard: true,
    crashRunsPerCase: 4,
    liveKills: 12,
  },
};

export const scale: ReliabilityScale = SCALES[process.env.RELIABILITY_SCALE === 'soak' ? 'soak' : 'ci'];

/** Mocha timeout for a file of the suite at this scale. */
export const suiteTimeoutMs = scale.name === 'soak' ? 3_600_000 : 120_000;
