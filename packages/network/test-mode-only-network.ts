import { GatewayError } from '../domain/errors.ts';
import type { Mode } from '../domain/mode.ts';
import type { CardNetwork } from './card-network.ts';

export const LIVE_PROCESSING_NOT_CONFIGURED =
  'Live processing is not configured: this installation has no card network for live mode yet, so live charges, captures, refunds and credits cannot be processed. Use a test mode key with the test cards.';

/**
 * The card network of an installation without a real acquirer: test mode runs on the simulator,
 * live mode fails every network call with a `gateway_error` rather than let the test cards
 * "succeed" with real money at stake. Card validation and BIN data stay available in both modes.
 */
export class TestModeOnlyNetwork implements CardNetwork {
  constructor(private readonly simulator: CardNetwork) {}

  binInfo: CardNetwork['binInfo'] = (number) => this.simulator.binInfo(number);
  validate: CardNetwork['validate'] = (entry, now) => this.simulator.validate(entry, now);
  authorize: CardNetwork['authorize'] = async (request) => this.testMode(request.mode).authorize(request);
  findAuthorization: CardNetwork['findAuthorization'] = async (request) =>
    this.testMode(request.mode).findAuthorization(request);
  capture: CardNetwork['capture'] = async (request) => this.testMode(request.mode).capture(request);
  refund: CardNetwork['refund'] = async (request) => this.testMode(request.mode).refund(request);
  credit: CardNetwork['credit'] = async (request) => this.testMode(request.mode).credit(request);
  findCredit: CardNetwork['findCredit'] = async (request) => this.testMode(request.mode).findCredit(request);
  representDispute: CardNetwork['representDispute'] = async (request) =>
    this.testMode(request.mode).representDispute(request);
  lookupThreeDSecure: CardNetwork['lookupThreeDSecure'] = async (request) =>
    this.testMode(request.mode).lookupThreeDSecure(request);
  checkFastCredit: CardNetwork['checkFastCredit'] = async (request) =>
    this.testMode(request.mode).checkFastCredit(request);

  private testMode(mode: Mode): CardNetwork {
    if (mode === 'live') throw new GatewayError(LIVE_PROCESSING_NOT_CONFIGURED);
    return this.simulator;
  }
}
