import { expect } from 'chai';
import { PassThrough } from 'node:stream';
import { createLogger, type LogLevel } from '../../../packages/observability/logger.ts';
import { redactText } from '../../../packages/observability/redaction.ts';
import { runWithRequestContext } from '../../../packages/observability/request-context.ts';

function capturingLogger(level: LogLevel = 'debug') {
  const stream = new PassThrough();
  const lines: Record<string, unknown>[] = [];
  stream.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
  });
  return { logger: createLogger(level, stream), lines };
}

/** Lets the stream deliver what was written. */
const flushed = () => new Promise((resolve) => setImmediate(resolve));

describe('observability: logger', () => {
  it('writes JSON lines with level, message and timestamp, honouring the level', async () => {
    const { logger, lines } = capturingLogger('info');
    logger.debug('hidden');
    logger.info('shown', { orderId: 'o_1' });
    await flushed();
    expect(lines).to.have.length(1);
    expect(lines[0]).to.include({ level: 'info', message: 'shown', orderId: 'o_1' });
    expect(lines[0]!.timestamp).to.be.a('string');
  });

  it('adds the request id, account and key inside a request context only', async () => {
    const { logger, lines } = capturingLogger();
    const context = { requestId: 'req_1' } as { requestId: string; accountId?: string; keyId?: string };
    await runWithRequestContext(context, async () => {
      logger.info('before auth');
      context.accountId = 'acct_1';
      context.keyId = 'key_1';
      await flushed();
      logger.info('after auth');
    });
    logger.info('outside');
    await flushed();
    expect(lines[0]).to.include({ requestId: 'req_1' }).and.not.have.property('accountId');
    expect(lines[1]).to.include({ requestId: 'req_1', accountId: 'acct_1', keyId: 'key_1' });
    expect(lines[2]).not.to.have.property('requestId');
  });

  it('redacts card-number-like digit runs anywhere in the entry', async () => {
    const { logger, lines } = capturingLogger();
    logger.info('charging 4242424242424242 now', {
      note: 'card 4242 4242 4242 4242 and 4000-0000-0000-0002',
      nested: { list: ['378282246310005', { deep: 'x 6011111111111117 y' }] },
    });
    await flushed();
    const text = JSON.stringify(lines[0]);
    for (const digits of ['4242424242424242', '4242 4242', '4000-0000', '378282246310005', '6011111111111117'])
      expect(text).not.to.contain(digits);
    expect(lines[0]!.message).to.equal('charging [REDACTED] now');
    expect(lines[0]!.note).to.equal('card [REDACTED] and [REDACTED]');
  });

  it('drops sensitive fields wherever they are, whatever their case', async () => {
    const { logger, lines } = capturingLogger();
    const card = { number: '4242424242424242', cvc: '123', last4: '4242', expMonth: 12 };
    logger.info('request', {
      card,
      headers: { Authorization: 'Basic c2tfdGVzdDo=', 'user-agent': 'ua' },
      account: { password: 'p', secret: 's', secretKey: 'sk', cardNumber: '4111', name: 'n' },
      number: '1',
    });
    await flushed();
    expect(lines[0]!.card).to.deep.equal({ last4: '4242', expMonth: 12 });
    expect(lines[0]!.headers).to.deep.equal({ 'user-agent': 'ua' });
    expect(lines[0]!.account).to.deep.equal({ name: 'n' });
    expect(lines[0]).not.to.have.property('number');
    expect(card.number, 'the logged object is left untouched').to.equal('4242424242424242');
  });

  it('logs errors with name, message and stack, redacted', async () => {
    const { logger, lines } = capturingLogger();
    logger.error('failed', { error: new Error('card 4242424242424242 refused') });
    await flushed();
    const error = lines[0]!.error as Record<string, string>;
    expect(error.name).to.equal('Error');
    expect(error.message).to.equal('card [REDACTED] refused');
    expect(error.stack).to.contain('logger.test.ts').and.not.contain('4242424242424242');
  });

  it('leaves shorter numbers, numbers failing Luhn, ids and timestamps alone', () => {
    expect(redactText('order 12345678901 at 2024-01-31T10:00:00.000Z')).to.equal(
      'order 12345678901 at 2024-01-31T10:00:00.000Z',
    );
    expect(redactText('amount 123456789012 cents')).to.equal('amount 123456789012 cents');
    expect(redactText('ids cust_Ab3dE9 and 1700000000 seconds')).to.equal('ids cust_Ab3dE9 and 1700000000 seconds');
  });

  it('redacts Luhn-valid runs next to letters, underscores and other digits groups', () => {
    expect(redactText('/charges/char_4000000000000010')).to.equal('/charges/char_[REDACTED]');
    expect(redactText('r4000000000000077')).to.equal('r[REDACTED]');
    expect(redactText('char_4242424242424242x')).to.equal('char_[REDACTED]x');
    expect(redactText('4242424242424242 12')).to.equal('[REDACTED] 12');
    expect(redactText('12 4242-4242-4242-4242')).to.equal('12 [REDACTED]');
    expect(redactText('%A44242424242424242')).to.equal('%A4[REDACTED]');
    // Inside a longer run of digits.
    expect(redactText('x0004242424242424242')).to.equal('x000[REDACTED]');
  });

  it('redacts card numbers given as JSON numbers', async () => {
    const { logger, lines } = capturingLogger();
    logger.info('numeric', { pan: 4242424242424242, count: 12 });
    await flushed();
    expect(lines[0]).to.include({ pan: '[REDACTED]', count: 12 });
  });
});
