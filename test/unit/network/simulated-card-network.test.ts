import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type {
  AuthorizationOutcome,
  AuthorizationRequest,
  ThreeDSecureInfo,
  ThreeDSecureRequest,
} from '../../../packages/network/card-network.ts';
import { SimulatedCardNetwork } from '../../../packages/network/simulated-card-network.ts';
import { StoredNetworkJournal } from '../../../packages/network/network-journal.ts';
import { SqliteDocumentStore } from '../../../packages/readstore/sqlite-document-store.ts';
import { TEST_CARDS } from '../../../packages/network/test-cards.ts';

const NOW = new Date('2025-06-15T12:00:00Z');
const network = new SimulatedCardNetwork();

/** Every authorization gets a reference of its own; compare the rest. */
function withoutReference(outcome: AuthorizationOutcome): Omit<AuthorizationOutcome, 'transactionId'> {
  const { transactionId: _reference, ...rest } = outcome;
  return rest;
}

function request(number: string, overrides: Partial<AuthorizationRequest> = {}): AuthorizationRequest {
  return {
    mode: 'test',
    accountId: 'acct_1',
    reference: `char_${randomUUID()}`,
    number,
    expMonth: 12,
    expYear: 2030,
    amount: 1999,
    currency: 'EUR',
    zip: null,
    addressProvided: false,
    threeDSecure: null,
    now: NOW,
    ...overrides,
  };
}
const authorize = (number: string, overrides: Partial<AuthorizationRequest> = {}) =>
  network.authorize(request(number, overrides));

const SUCCEEDING: Record<string, string> = {
  '4242424242424242': 'Visa credit',
  '4000056655665556': 'Visa debit',
  '4000000000000077': 'Visa prepaid',
  '5555555555554444': 'MasterCard credit',
  '5200828282828210': 'MasterCard debit',
  '378282246310005': 'American Express',
  '6011111111111117': 'Discover',
  '3566002020360505': 'JCB',
  '30569309025904': 'Diners Club',
  '6759649826438453': 'Maestro',
};

const ISSUER_DECLINES: Record<string, { code: string; issuerDeclineCode: string | null }> = {
  '4000000000000002': { code: 'card_declined', issuerDeclineCode: '05' },
  '4000000000009995': { code: 'insufficient_funds', issuerDeclineCode: '51' },
  '4000000000009987': { code: 'lost_or_stolen', issuerDeclineCode: '43' },
  '4000000000000069': { code: 'expired_card', issuerDeclineCode: '54' },
  '4000000000000127': { code: 'incorrect_cvc', issuerDeclineCode: 'N7' },
  '4000000000000119': { code: 'processing_error', issuerDeclineCode: null },
  '4000000000000010': { code: 'do_not_try_again', issuerDeclineCode: 'R1' },
  '4000000000000044': { code: 'limit_exceeded', issuerDeclineCode: '61' },
  '4000000000000341': { code: 'card_declined', issuerDeclineCode: '05' },
};

const DEFAULT_3DS: ThreeDSecureRequest = {
  requireAttempt: false,
  requireEnrolledCard: false,
  requireSuccessfulLiabilityShiftForEnrolledCard: true,
};

describe('SimulatedCardNetwork', () => {
  describe('test-card table through authorize', () => {
    for (const [number, name] of Object.entries(SUCCEEDING)) {
      it(`${number} (${name}) succeeds`, async () => {
        const outcome = await authorize(number);
        expect(outcome.approved).to.equal(true);
        expect(outcome.failure).to.equal(null);
        expect(outcome.avsResult).to.equal('not_provided');
        expect(outcome.fraud.status).to.equal('safe');
        expect(outcome.fraud.score).to.be.within(0, 20);
        expect(outcome.threeDSecureInfo).to.equal(null);
        expect(outcome.later).to.deep.equal([]);
      });
    }

    for (const [number, { code, issuerDeclineCode }] of Object.entries(ISSUER_DECLINES)) {
      it(`${number} declines ${code} (issuer code ${issuerDeclineCode})`, async () => {
        const outcome = await authorize(number);
        expect(outcome.approved).to.equal(false);
        expect(outcome.failure).to.include({ code, issuerDeclineCode });
        expect(outcome.failure?.message).to.be.a('string').and.not.equal('');
        expect(outcome.later).to.deep.equal([]);
      });
    }

    it('4000000000009995 reports issuer decline code 51', async () => {
      expect((await authorize('4000000000009995')).failure?.issuerDeclineCode).to.equal('51');
    });

    it('4000000000000036 declines incorrect_zip with AVS no_match when a zip is given', async () => {
      const outcome = await authorize('4000000000000036', { zip: '10001', addressProvided: true });
      expect(outcome.approved).to.equal(false);
      expect(outcome.avsResult).to.equal('no_match');
      expect(outcome.failure).to.include({ code: 'incorrect_zip', issuerDeclineCode: null });
    });

    it('4000000000000036 succeeds when no zip is given', async () => {
      const outcome = await authorize('4000000000000036');
      expect(outcome.approved).to.equal(true);
      expect(outcome.avsResult).to.equal('not_provided');
    });

    it('4100000000000019 is blocked as suspected_fraud, fraud status fraudulent', async () => {
      const outcome = await authorize('4100000000000019');
      expect(outcome.approved).to.equal(false);
      expect(outcome.failure).to.include({ code: 'suspected_fraud', issuerDeclineCode: null });
      expect(outcome.fraud.status).to.equal('fraudulent');
      expect(outcome.fraud.score).to.be.within(90, 100);
      expect(outcome.later).to.deep.equal([]);
    });

    it('4000000000000341 can be saved but every charge on it declines card_declined', async () => {
      expect(network.validate({ number: '4000000000000341', expMonth: 12, expYear: 2030, cvc: '123' }, NOW)).to.equal(
        null,
      );
      for (const amount of [1, 500, 100000]) {
        expect((await authorize('4000000000000341', { amount })).failure?.code).to.equal('card_declined');
      }
    });

    it('4000000000003220 fails authentication_required without 3-D Secure (issuer code 1A)', async () => {
      const outcome = await authorize('4000000000003220');
      expect(outcome.approved).to.equal(false);
      expect(outcome.failure).to.include({ code: 'authentication_required', issuerDeclineCode: '1A' });
      expect(outcome.threeDSecureInfo).to.equal(null);
    });

    it('4000000000003063 succeeds frictionless with 3-D Secure', async () => {
      const outcome = await authorize('4000000000003063', { threeDSecure: DEFAULT_3DS });
      expect(outcome.approved).to.equal(true);
      expect(outcome.threeDSecureInfo).to.include({
        enrolled: true,
        liabilityShift: 'successful',
        authenticationFlow: 'frictionless',
      });
    });

    it('4000000000003089 is not enrolled: liabilityShift not_possible', async () => {
      const outcome = await authorize('4000000000003089', { threeDSecure: DEFAULT_3DS });
      expect(outcome.approved).to.equal(true);
      expect(outcome.threeDSecureInfo).to.include({
        enrolled: false,
        liabilityShift: 'not_possible',
        authenticationFlow: null,
      });
    });

    it('4000000000003238 is enrolled frictionless but refused by its issuer: authentication_required', async () => {
      const outcome = await authorize('4000000000003238', { threeDSecure: DEFAULT_3DS });
      expect(outcome.approved).to.equal(false);
      expect(outcome.failure?.code).to.equal('authentication_required');
      expect(outcome.threeDSecureInfo).to.include({
        enrolled: true,
        liabilityShift: 'failed',
        authenticationFlow: 'frictionless',
      });
      expect((await authorize('4000000000003238')).approved).to.equal(true);
    });

    it('4000000000000101 charge succeeds, its refund fails', async () => {
      const { approved, transactionId } = await network.authorize(request('4000000000000101'));
      expect(approved).to.equal(true);
      expect(
        await network.refund({ mode: 'test', transactionId: transactionId!, amount: 1999, currency: 'EUR' }),
      ).to.deep.equal({ status: 'failed' });
    });

    it('4242000000000018 charge succeeds, a dispute follows', async () => {
      const outcome = await authorize('4242000000000018');
      expect(outcome.approved).to.equal(true);
      expect(outcome.fraud.status).to.equal('safe');
      expect(outcome.later).to.deep.equal([
        { kind: 'dispute', afterMs: 2000, stage: 'chargeback', reason: 'FRAUDULENT' },
      ]);
    });

    const DISPUTE_CARDS = {
      '4242000000001008': { stage: 'chargeback', reason: 'UNRECOGNIZED' },
      '4242000000001016': { stage: 'chargeback', reason: 'DUPLICATE' },
      '4242000000001024': { stage: 'chargeback', reason: 'SUBSCRIPTION_CANCELED' },
      '4242000000001032': { stage: 'chargeback', reason: 'PRODUCT_NOT_RECEIVED' },
      '4242000000001040': { stage: 'chargeback', reason: 'PRODUCT_UNACCEPTABLE' },
      '4242000000001057': { stage: 'chargeback', reason: 'CREDIT_NOT_PROCESSED' },
      '4242000000001065': { stage: 'chargeback', reason: 'GENERAL' },
      '4242000000001073': { stage: 'retrieval_request', reason: 'UNRECOGNIZED' },
    } as const;

    for (const [number, dispute] of Object.entries(DISPUTE_CARDS)) {
      it(`${number} charge succeeds, a ${dispute.stage.replace('_', ' ')} (${dispute.reason}) follows`, async () => {
        const outcome = await authorize(number);
        expect(outcome.approved).to.equal(true);
        expect(outcome.later).to.deep.equal([{ kind: 'dispute', afterMs: 2000, ...dispute }]);
      });
    }

    it('4242000000000208 charge succeeds, fraud screening in progress, a fraud warning follows', async () => {
      const outcome = await authorize('4242000000000208');
      expect(outcome.approved).to.equal(true);
      expect(outcome.fraud.status).to.equal('in_progress');
      expect(outcome.fraud.score).to.be.within(0, 100);
      expect(outcome.later).to.have.length(1);
      const [warning] = outcome.later;
      expect(warning).to.deep.include({ kind: 'fraud_warning', afterMs: 2000 });
      expect(warning).to.have.nested.property('fraudDetails.status', 'fraudulent');
      expect((warning as { fraudDetails: { score: number } }).fraudDetails.score).to.be.within(90, 100);
      expect((await authorize('4242000000000208')).later, 'deterministic').to.deep.equal(outcome.later);
    });

    it('a number failing Luhn is invalid_number, through validate and authorize', async () => {
      expect(network.validate({ number: '4242424242424241', expMonth: 12, expYear: 2030 }, NOW)?.code).to.equal(
        'invalid_number',
      );
      const outcome = await authorize('4242424242424241');
      expect(outcome.approved).to.equal(false);
      expect(outcome.failure).to.include({ code: 'invalid_number', issuerDeclineCode: '14' });
      expect(outcome.later).to.deep.equal([]);
    });

    it('an unlisted valid number succeeds', async () => {
      expect((await authorize('4111111111111111')).approved).to.equal(true);
    });

    it('every test card passes validation (every test card can be saved)', () => {
      for (const number of TEST_CARDS.keys()) {
        const cvc = number.startsWith('37') ? '1234' : '123';
        expect(network.validate({ number, expMonth: 12, expYear: 2030, cvc }, NOW), number).to.equal(null);
      }
    });

    it('these tests cover every card of the table', () => {
      const covered = new Set([
        ...Object.keys(SUCCEEDING),
        ...Object.keys(ISSUER_DECLINES),
        '4000000000000036',
        '4100000000000019',
        '4000000000003220',
        '4000000000003063',
        '4000000000003089',
        '4000000000003238',
        '4000000000000101',
        '4242000000000018',
        '4242000000000208',
        ...Object.keys(DISPUTE_CARDS),
      ]);
      expect([...TEST_CARDS.keys()].sort()).to.deep.equal([...covered].sort());
    });
  });

  describe('authorizations by reference', () => {
    it('answers a repeated reference with the first answer, and tells what happened to it', async () => {
      const first = request('4242424242424242', { reference: 'char_repeat' });
      expect(await network.findAuthorization({ mode: 'test', reference: 'char_repeat' })).to.equal(null);
      const outcome = await network.authorize(first);
      expect(outcome.approved).to.equal(true);
      expect(await network.authorize({ ...first, amount: 5 })).to.deep.equal(outcome);
      expect(await network.findAuthorization({ mode: 'test', reference: 'char_repeat' })).to.deep.equal(outcome);
      expect(await network.findAuthorization({ mode: 'live', reference: 'char_repeat' })).to.equal(null);
    });

    it('answers a repeated credit reference with the first answer, and tells what happened to it', async () => {
      const transfer = {
        mode: 'test' as const,
        accountId: 'acct_1',
        reference: 'cr_repeat',
        number: '4242424242424242',
        expMonth: 12,
        expYear: 2030,
        amount: 500,
        currency: 'EUR',
        now: NOW,
      };
      expect(await network.findCredit({ mode: 'test', reference: 'cr_repeat' })).to.equal(null);
      const outcome = await network.credit(transfer);
      expect(outcome.approved).to.equal(true);
      expect(await network.credit({ ...transfer, number: '4000000000000002' })).to.deep.equal(outcome);
      expect(await network.findCredit({ mode: 'test', reference: 'cr_repeat' })).to.deep.equal(outcome);
    });

    it('remembers them in its journal, across instances sharing it (a restarted service)', async () => {
      const store = new SqliteDocumentStore(':memory:');
      try {
        const journal = () => new StoredNetworkJournal<AuthorizationOutcome>(store.collection('authorizations'));
        const before = await new SimulatedCardNetwork({ authorizations: journal() }).authorize(
          request('4000000000000002', { reference: 'char_declined' }),
        );
        expect(before.approved).to.equal(false);
        const after = new SimulatedCardNetwork({ authorizations: journal() });
        expect(await after.findAuthorization({ mode: 'test', reference: 'char_declined' })).to.deep.equal(before);
      } finally {
        await store.close();
      }
    });
  });

  describe('later events', () => {
    it('uses the configured delays', async () => {
      const custom = new SimulatedCardNetwork({
        disputeDelayMs: 10,
        fraudWarningDelayMs: 20,
        disputeDecisionDelayMs: 30,
      });
      expect((await custom.authorize(request('4242000000000018'))).later).to.deep.include.members([
        { kind: 'dispute', afterMs: 10, stage: 'chargeback', reason: 'FRAUDULENT' },
      ]);
      expect((await custom.authorize(request('4242000000000208'))).later).to.have.nested.property('[0].afterMs', 20);
      const decision = await custom.representDispute({
        mode: 'test',
        transactionId: 'sim_1',
        evidence: { customerName: 'Jane' },
      });
      expect(decision?.afterMs).to.equal(30);
    });

    it('are not returned when the charge is not approved', async () => {
      const strict: ThreeDSecureRequest = { ...DEFAULT_3DS, requireEnrolledCard: true };
      const disputed = await authorize('4242000000000018', { threeDSecure: strict });
      expect(disputed.approved).to.equal(false);
      expect(disputed.later).to.deep.equal([]);
      const warned = await authorize('4242000000000208', { threeDSecure: strict });
      expect(warned.approved).to.equal(false);
      expect(warned.later).to.deep.equal([]);
      expect(warned.fraud.status).to.equal('safe');
    });
  });

  describe('AVS', () => {
    it('not_provided without any address', async () =>
      expect((await authorize('4242424242424242')).avsResult).to.equal('not_provided'));
    it('full_match with a zip', async () => {
      expect((await authorize('4242424242424242', { zip: '10001', addressProvided: true })).avsResult).to.equal(
        'full_match',
      );
    });
    it('counts a zip on its own as an address', async () => {
      expect((await authorize('4242424242424242', { zip: '10001', addressProvided: false })).avsResult).to.equal(
        'full_match',
      );
    });
    it('partial_match with an address but no zip', async () => {
      expect((await authorize('4242424242424242', { addressProvided: true })).avsResult).to.equal('partial_match');
    });
    it('treats a blank zip as no zip', async () => {
      expect((await authorize('4242424242424242', { zip: '  ', addressProvided: true })).avsResult).to.equal(
        'partial_match',
      );
      expect((await authorize('4000000000000036', { zip: '', addressProvided: true })).approved).to.equal(true);
    });
    it('partial_match and approved for 4000000000000036 with an address but no zip', async () => {
      const outcome = await authorize('4000000000000036', { addressProvided: true });
      expect(outcome.avsResult).to.equal('partial_match');
      expect(outcome.approved).to.equal(true);
    });
  });

  describe('3-D Secure matrix', () => {
    const LENIENT: ThreeDSecureRequest = {
      requireAttempt: false,
      requireEnrolledCard: false,
      requireSuccessfulLiabilityShiftForEnrolledCard: false,
    };
    const REQUIRE_ENROLLED: ThreeDSecureRequest = { ...DEFAULT_3DS, requireEnrolledCard: true };
    const REQUIRE_ATTEMPT: ThreeDSecureRequest = { ...DEFAULT_3DS, requireAttempt: true };
    const external = (
      status: NonNullable<ThreeDSecureRequest['external']>['status'],
      base: ThreeDSecureRequest = DEFAULT_3DS,
    ): ThreeDSecureRequest => ({
      ...base,
      external: { version: '2.2.0', eci: status === 'Y' ? '05' : '07', status },
    });
    type Info = Pick<ThreeDSecureInfo, 'enrolled' | 'liabilityShift' | 'authenticationFlow'>;
    const info = (
      enrolled: boolean,
      liabilityShift: Info['liabilityShift'],
      authenticationFlow: Info['authenticationFlow'],
    ): Info => ({
      enrolled,
      liabilityShift,
      authenticationFlow,
    });
    const CHALLENGE = '4000000000003220';
    const FRICTIONLESS = '4000000000003063';
    const NOT_ENROLLED = '4000000000003089';
    const ORDINARY = '4242424242424242';

    const cases: [
      card: string,
      options: string,
      threeDSecure: ThreeDSecureRequest | null,
      approved: boolean,
      info: Info | null,
    ][] = [
      [CHALLENGE, 'none', null, false, null],
      [CHALLENGE, 'default', DEFAULT_3DS, false, info(true, 'failed', 'challenge')],
      [CHALLENGE, 'lenient', LENIENT, true, info(true, 'failed', 'challenge')],
      [CHALLENGE, 'requireEnrolledCard', REQUIRE_ENROLLED, false, info(true, 'failed', 'challenge')],
      [CHALLENGE, 'requireAttempt', REQUIRE_ATTEMPT, false, info(true, 'failed', 'challenge')],
      [CHALLENGE, 'external Y', external('Y'), true, info(true, 'successful', 'challenge')],
      [CHALLENGE, 'external A', external('A'), true, info(true, 'successful', 'challenge')],
      [CHALLENGE, 'external N', external('N'), false, info(true, 'failed', 'challenge')],
      [CHALLENGE, 'external R', external('R'), false, info(true, 'failed', 'challenge')],
      [CHALLENGE, 'external U', external('U'), false, info(true, 'failed', 'challenge')],
      [CHALLENGE, 'external E', external('E'), false, info(true, 'failed', 'challenge')],
      [FRICTIONLESS, 'none', null, true, null],
      [FRICTIONLESS, 'default', DEFAULT_3DS, true, info(true, 'successful', 'frictionless')],
      [FRICTIONLESS, 'requireEnrolledCard', REQUIRE_ENROLLED, true, info(true, 'successful', 'frictionless')],
      [FRICTIONLESS, 'requireAttempt', REQUIRE_ATTEMPT, true, info(true, 'successful', 'frictionless')],
      [FRICTIONLESS, 'external Y', external('Y'), true, info(true, 'successful', 'frictionless')],
      [FRICTIONLESS, 'external N', external('N'), false, info(true, 'failed', 'frictionless')],
      [FRICTIONLESS, 'external N, lenient', external('N', LENIENT), true, info(true, 'failed', 'frictionless')],
      ['4000000000003238', 'default', DEFAULT_3DS, false, info(true, 'failed', 'frictionless')],
      ['4000000000003238', 'lenient', LENIENT, true, info(true, 'failed', 'frictionless')],
      ['4000000000003238', 'external Y', external('Y'), true, info(true, 'successful', 'frictionless')],
      ...[NOT_ENROLLED, ORDINARY].flatMap((card): typeof cases => [
        [card, 'none', null, true, null],
        [card, 'default', DEFAULT_3DS, true, info(false, 'not_possible', null)],
        [card, 'requireEnrolledCard', REQUIRE_ENROLLED, false, info(false, 'not_possible', null)],
        [card, 'requireAttempt', REQUIRE_ATTEMPT, false, info(false, 'not_possible', null)],
        [card, 'external Y', external('Y'), true, info(true, 'successful', null)],
        [card, 'external A', external('A'), true, info(false, 'successful', null)],
        [card, 'external A, requireAttempt', external('A', REQUIRE_ATTEMPT), true, info(false, 'successful', null)],
        [
          card,
          'external A, requireEnrolledCard',
          external('A', REQUIRE_ENROLLED),
          false,
          info(false, 'successful', null),
        ],
        [card, 'external N', external('N'), false, info(true, 'failed', null)],
        [card, 'external U', external('U'), true, info(false, 'failed', null)],
        [card, 'external U, requireEnrolledCard', external('U', REQUIRE_ENROLLED), false, info(false, 'failed', null)],
      ]),
    ];

    for (const [card, name, threeDSecure, approved, expectedInfo] of cases) {
      it(`${card} with ${name}: ${approved ? 'approved' : 'authentication_required'}${expectedInfo ? `, ${expectedInfo.liabilityShift}` : ''}`, async () => {
        const outcome = await authorize(card, { threeDSecure, amount: 4321, currency: 'PLN' });
        expect(outcome.approved).to.equal(approved);
        if (approved) expect(outcome.failure).to.equal(null);
        else expect(outcome.failure?.code).to.equal('authentication_required');
        if (expectedInfo === null) expect(outcome.threeDSecureInfo).to.equal(null);
        else expect(outcome.threeDSecureInfo).to.deep.include({ amount: 4321, currency: 'PLN', ...expectedInfo });
      });
    }

    const verified = (
      enrolled: boolean,
      liabilityShift: Info['liabilityShift'],
      authenticationFlow: Info['authenticationFlow'],
    ): ThreeDSecureRequest => ({
      ...DEFAULT_3DS,
      verified: {
        amount: 4321,
        currency: 'PLN',
        enrolled,
        liabilityShift,
        authenticationFlow,
        version: enrolled ? '2.2.0' : null,
      },
    });
    const verifiedCases: [card: string, threeDSecure: ThreeDSecureRequest, approved: boolean][] = [
      [CHALLENGE, verified(true, 'successful', 'challenge'), true],
      [CHALLENGE, verified(true, 'failed', 'challenge'), false],
      [CHALLENGE, verified(true, 'pending', 'challenge'), false],
      [
        CHALLENGE,
        { ...verified(true, 'failed', 'challenge'), requireSuccessfulLiabilityShiftForEnrolledCard: false },
        true,
      ],
      [FRICTIONLESS, verified(true, 'successful', 'frictionless'), true],
      [NOT_ENROLLED, verified(false, 'not_possible', null), true],
      [NOT_ENROLLED, { ...verified(false, 'not_possible', null), requireEnrolledCard: true }, false],
    ];
    for (const [card, threeDSecure, approved] of verifiedCases) {
      const { liabilityShift } = threeDSecure.verified!;
      it(`${card} verified on its token (${liabilityShift}): ${approved ? 'approved' : 'authentication_required'}, the verification's result recorded`, async () => {
        const outcome = await authorize(card, { threeDSecure, amount: 4321, currency: 'PLN' });
        expect(outcome.approved).to.equal(approved);
        if (!approved) expect(outcome.failure).to.include({ code: 'authentication_required', issuerDeclineCode: null });
        expect(outcome.threeDSecureInfo).to.deep.equal(threeDSecure.verified);
      });
    }

    it("records the protocol version: 2.2.0 for enrolled cards, the external result's own, null when not enrolled", async () => {
      expect((await authorize(FRICTIONLESS, { threeDSecure: DEFAULT_3DS })).threeDSecureInfo?.version).to.equal(
        '2.2.0',
      );
      expect((await authorize(NOT_ENROLLED, { threeDSecure: DEFAULT_3DS })).threeDSecureInfo?.version).to.equal(null);
      const externalResult = { ...DEFAULT_3DS, external: { version: '2.1.0', eci: '05', status: 'Y' as const } };
      expect((await authorize(CHALLENGE, { threeDSecure: externalResult })).threeDSecureInfo?.version).to.equal(
        '2.1.0',
      );
    });

    it('looks enrolment up from the test-card table: challenge, frictionless, not enrolled', async () => {
      expect(await network.lookupThreeDSecure({ mode: 'test', number: CHALLENGE })).to.deep.equal({
        enrolled: true,
        authenticationFlow: 'challenge',
        frictionlessAuthenticated: false,
        version: '2.2.0',
      });
      expect(await network.lookupThreeDSecure({ mode: 'test', number: '4000000000003238' })).to.deep.equal({
        enrolled: true,
        authenticationFlow: 'frictionless',
        frictionlessAuthenticated: false,
        version: '2.2.0',
      });
      expect(await network.lookupThreeDSecure({ mode: 'test', number: FRICTIONLESS })).to.include({
        authenticationFlow: 'frictionless',
      });
      expect(await network.lookupThreeDSecure({ mode: 'test', number: NOT_ENROLLED })).to.deep.equal({
        enrolled: false,
        authenticationFlow: null,
        frictionlessAuthenticated: false,
        version: null,
      });
    });

    it('reports merchant policy failures without an issuer decline code', async () => {
      const outcome = await authorize(CHALLENGE, { threeDSecure: DEFAULT_3DS });
      expect(outcome.failure?.issuerDeclineCode).to.equal(null);
    });
  });

  describe('fraud screening', () => {
    it('is deterministic, apart from the reference of each authorization', async () => {
      for (const number of ['4242424242424242', '4100000000000019', '4242000000000208']) {
        expect(withoutReference(await authorize(number))).to.deep.equal(withoutReference(await authorize(number)));
      }
    });

    it('scores ordinary cards 0–20 as safe for any amount', async () => {
      for (let amount = 1; amount <= 2000; amount += 97) {
        const { fraud } = await authorize('5555555555554444', { amount });
        expect(fraud.status).to.equal('safe');
        expect(Number.isInteger(fraud.score)).to.equal(true);
        expect(fraud.score).to.be.within(0, 20);
      }
    });

    it('scores the fraudulent card at least 90 for any amount', async () => {
      for (let amount = 1; amount <= 2000; amount += 97) {
        const { fraud } = await authorize('4100000000000019', { amount });
        expect(Number.isInteger(fraud.score)).to.equal(true);
        expect(fraud.score).to.be.within(90, 100);
      }
    });

    it('blocks the fraudulent card before 3-D Secure or AVS', async () => {
      const outcome = await authorize('4100000000000019', {
        threeDSecure: { ...DEFAULT_3DS, requireEnrolledCard: true },
        zip: '1',
      });
      expect(outcome.failure?.code).to.equal('suspected_fraud');
    });
  });

  describe('live mode', () => {
    it('behaves like test mode', async () => {
      for (const number of ['4242424242424242', '4000000000009995', '4242000000000208']) {
        expect(withoutReference(await authorize(number, { mode: 'live' }))).to.deep.equal(
          withoutReference(await authorize(number)),
        );
      }
    });
  });

  describe('capture, refund, credit and fast credit', () => {
    const transactionOf = async (number: string) => (await network.authorize(request(number))).transactionId!;

    it('captures any test card', async () => {
      for (const number of ['4242424242424242', '4000000000000101']) {
        expect(
          await network.capture({
            mode: 'test',
            transactionId: await transactionOf(number),
            amount: 100,
            currency: 'EUR',
          }),
        ).to.equal(undefined);
      }
    });

    it('refunds by transaction reference: successfully except for authorizations of 4000000000000101', async () => {
      for (const number of ['4242424242424242', '4242000000000018', '378282246310005']) {
        const transactionId = await transactionOf(number);
        expect(transactionId).to.match(/^sim_/).and.not.include(number);
        expect(await network.refund({ mode: 'test', transactionId, amount: 100, currency: 'EUR' })).to.deep.equal({
          status: 'successful',
        });
      }
      const declining = await transactionOf('4000000000000101');
      expect(
        await network.refund({ mode: 'live', transactionId: declining, amount: 1, currency: 'USD' }),
      ).to.deep.equal({ status: 'failed' });
    });

    it('gives declined authorizations no transaction reference', async () => {
      expect((await network.authorize(request('4000000000000002'))).transactionId).to.equal(null);
    });

    const credit = (number: string) =>
      network.credit({
        mode: 'test',
        accountId: 'acct_1',
        reference: `cr_${randomUUID()}`,
        number,
        expMonth: 12,
        expYear: 2030,
        amount: 500,
        currency: 'EUR',
        now: NOW,
      });

    it('credits declines like charges for the decline cards', async () => {
      for (const number of [...Object.keys(ISSUER_DECLINES), '4100000000000019']) {
        const [credited, charged] = [await credit(number), await authorize(number)];
        expect(credited.approved, number).to.equal(false);
        expect(credited.failure, number).to.deep.equal(charged.failure);
      }
    });

    it('approves credits to the other cards (no 3-D Secure or AVS for credits)', async () => {
      for (const number of [
        ...Object.keys(SUCCEEDING),
        '4000000000003220',
        '4000000000000036',
        '4000000000000101',
        '4242000000000018',
        '4242000000000208',
      ]) {
        expect(await credit(number), number).to.deep.equal({ approved: true, failure: null });
      }
    });

    it('refuses credits to an invalid number', async () => {
      expect((await credit('4242424242424241')).failure?.code).to.equal('invalid_number');
    });

    it('supports fast credit for Visa and MasterCard debit cards only', async () => {
      const supported = async (number: string) => (await network.checkFastCredit({ mode: 'test', number })).supported;
      expect(await supported('4000056655665556')).to.equal(true);
      expect(await supported('5200828282828210')).to.equal(true);
      for (const number of [
        '4242424242424242',
        '4000000000000077',
        '5555555555554444',
        '6759649826438453',
        '378282246310005',
        '4111111111111111',
        '4000056655665557',
      ]) {
        expect(await supported(number), number).to.equal(false);
      }
    });
  });

  it('never puts a card number (a run of 12+ digits) in a failure message', async () => {
    const numbers = [...TEST_CARDS.keys(), '4242424242424241', '4111111111111111'];
    const optionsList: (ThreeDSecureRequest | null)[] = [
      null,
      DEFAULT_3DS,
      { ...DEFAULT_3DS, requireAttempt: true, requireEnrolledCard: true },
      { ...DEFAULT_3DS, external: { version: '2.2.0', eci: '07', status: 'N' } },
    ];
    const messages: string[] = [];
    for (const number of numbers) {
      for (const threeDSecure of optionsList) {
        const outcome = await authorize(number, { threeDSecure, zip: '10001', addressProvided: true });
        if (outcome.failure) messages.push(outcome.failure.message);
      }
      const credited = await network.credit({
        mode: 'test',
        accountId: 'acct_1',
        reference: `cr_${randomUUID()}`,
        number,
        expMonth: 12,
        expYear: 2030,
        amount: 1,
        currency: 'EUR',
        now: NOW,
      });
      if (credited.failure) messages.push(credited.failure.message);
      for (const entry of [{}, { expMonth: 0 }, { expYear: 25 }, { expYear: 2025, expMonth: 1 }, { cvc: '12345' }]) {
        const failure = network.validate({ number, expMonth: 12, expYear: 2030, cvc: '123', ...entry }, NOW);
        if (failure) messages.push(failure.message);
      }
    }
    expect(messages.length).to.be.greaterThan(50);
    for (const message of messages) expect(message).to.not.match(/\d{12,}/);
  });

  describe('dispute representment (test-mode rule)', () => {
    const represent = (evidence: Record<string, string>) =>
      network.representDispute({ mode: 'test', transactionId: 'sim_1', evidence });

    it('wins with winning_evidence in uncategorizedText, decided after the default delay', async () => {
      expect(await represent({ uncategorizedText: 'see attached: winning_evidence' })).to.deep.equal({
        outcome: 'won',
        afterMs: 2000,
      });
    });

    it('loses with any other evidence', async () => {
      expect((await represent({ uncategorizedText: 'please reconsider' }))?.outcome).to.equal('lost');
      expect(
        (await represent({ productDescription: 'winning_evidence' }))?.outcome,
        'only uncategorizedText counts',
      ).to.equal('lost');
    });
  });
});
