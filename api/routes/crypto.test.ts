import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { FixedRatesProvider } from '../../domain/crypto/rates';
import { SandboxCryptoGateway } from '../../domain/crypto/sandbox-gateway';
import { eventually } from '../../ops/testing/eventually';
import { startTestStack, type TestStack } from '../../ops/testing/harness';

jest.setTimeout(120_000);

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({
    ports: {
      cryptoRates: new FixedRatesProvider({ USDC: 10_000n, USDT: 9_998n }),
      cryptoGateway: new SandboxCryptoGateway(100),
    },
  });
});
afterAll(() => stack.close());

/** A signed-in agent for a fresh user id (a server-side session, as login would open). */
async function member() {
  const userId = randomUUID();
  const token = randomBytes(32).toString('base64url');
  await stack.db('http_sessions').insert({
    id: createHash('sha256').update(token).digest('hex'),
    user_id: userId,
    expires_at: new Date(Date.now() + 3_600_000),
  });
  return { userId, agent: stack.agent().set('Cookie', `lively.sid=${token}`) };
}

describe('crypto API', () => {
  it('serves rates with 4 decimals to anyone, and everything else only when signed in', async () => {
    const res = await stack.agent().get('/api/crypto/rates').expect(200);
    expect(res.body).toMatchObject({ USDC: '1.0000', USDT: '0.9998' });
    for (const path of ['/api/crypto/wallets', '/api/crypto/balance', '/api/crypto/conversions']) {
      expect((await stack.agent().get(path).expect(401)).body.error).toBe('Unauthorized');
    }
    await stack.agent().post('/api/crypto/calculate').send({ cryptoAmount: '20', cryptoType: 'USDC' }).expect(401);
  });

  it('previews a conversion with fee + net == gross and the $10 minimum', async () => {
    const { agent } = await member();
    const res = await agent.post('/api/crypto/calculate').send({ cryptoAmount: '20', cryptoType: 'USDC' }).expect(200);
    expect(res.body).toEqual({
      cryptoAmount: '20.00000000',
      cryptoType: 'USDC',
      exchangeRate: '1.0000',
      grossUsdAmount: '20.00',
      serviceFeeAmount: '0.60',
      serviceFeePercent: '3.00',
      netUsdAmount: '19.40',
      isValidMinimum: true,
    });
    const small = await agent.post('/api/crypto/calculate').send({ cryptoAmount: 10, cryptoType: 'USDT' }).expect(200);
    expect(small.body).toMatchObject({
      grossUsdAmount: '10.00',
      serviceFeeAmount: '0.30',
      netUsdAmount: '9.70',
      isValidMinimum: false,
    });
  });

  it('refuses bad amounts and types with the SPEC messages', async () => {
    const { agent } = await member();
    const cases: Array<[unknown, string]> = [
      ['1.123456789', 'Invalid crypto amount format'],
      ['0', 'Please enter a valid crypto amount'],
      [-5, 'Please enter a valid crypto amount'],
      ['ten', 'Please enter a valid crypto amount'],
      [null, 'Please enter a valid crypto amount'],
    ];
    for (const [cryptoAmount, message] of cases) {
      const res = await agent.post('/api/crypto/calculate').send({ cryptoAmount, cryptoType: 'USDC' }).expect(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', error: message, fields: { cryptoAmount: message } });
    }
    const badType = await agent
      .post('/api/crypto/calculate')
      .send({ cryptoAmount: '20', cryptoType: 'BTC' })
      .expect(400);
    expect(badType.body.fields.cryptoType).toBeDefined();
    const noAddress = await agent
      .post('/api/crypto/convert')
      .send({ cryptoAmount: '20', cryptoType: 'USDC', walletAddress: '  ' })
      .expect(400);
    expect(noAddress.body.fields.walletAddress).toBe('Wallet address is required');
  });

  it('registers wallets and refuses a duplicate address for the same user with a 409', async () => {
    const { agent } = await member();
    expect((await agent.get('/api/crypto/wallets').expect(200)).body).toEqual([]);
    const address = '0x52908400098527886E0F7030069857D2E4169EE7';
    const created = await agent
      .post('/api/crypto/wallets')
      .send({ cryptoType: 'USDC', walletAddress: ` ${address} ` })
      .expect(201);
    expect(created.body).toMatchObject({
      cryptoType: 'USDC',
      walletAddress: address,
      balance: '0.00000000',
      isActive: true,
    });
    const dup = await agent
      .post('/api/crypto/wallets')
      .send({ cryptoType: 'USDT', walletAddress: address.toLowerCase() })
      .expect(409);
    expect(dup.body.error).toBe('This wallet address is already registered');
    const blank = await agent
      .post('/api/crypto/wallets')
      .send({ cryptoType: 'USDC', walletAddress: '   ' })
      .expect(400);
    expect(blank.body.fields.walletAddress).toBe('Please enter a valid wallet address');
    // another member may register the same address
    await (
      await member()
    ).agent
      .post('/api/crypto/wallets')
      .send({ cryptoType: 'USDC', walletAddress: address })
      .expect(201);
    expect(
      await eventually(
        () => agent.get('/api/crypto/wallets').then((r) => r.body),
        (w) => w.length === 1,
      ),
    ).toHaveLength(1);
  });

  it('converts: pending -> processing -> completed, credits the net once, keeps the history', async () => {
    const { agent, userId } = await member();
    const address = '0xAb5801a7D398351b8bE11C439e05C5B3259aeC9B';
    await agent.post('/api/crypto/wallets').send({ cryptoType: 'USDC', walletAddress: address }).expect(201);
    const body = { cryptoAmount: '20', cryptoType: 'USDC', walletAddress: address };
    const first = await agent.post('/api/crypto/convert').set('Idempotency-Key', 'conv-1').send(body).expect(202);
    expect(first.body).toMatchObject({ status: 'pending', preview: { netUsdAmount: '19.40' } });
    expect(first.body.message).toContain('19.40');
    const replay = await agent.post('/api/crypto/convert').set('Idempotency-Key', 'conv-1').send(body).expect(202);
    expect(replay.body.transactionId).toBe(first.body.transactionId);
    await agent
      .post('/api/crypto/convert')
      .set('Idempotency-Key', 'conv-1')
      .send({ ...body, cryptoAmount: '30' })
      .expect(409);

    const balance = await eventually(
      () => agent.get('/api/crypto/balance').then((r) => r.body),
      (b) => b.totalUsd === '19.40' && b.conversions.length === 1,
    );
    expect(balance.totalUsd).toBe('19.40');
    expect(balance.conversions).toHaveLength(1);
    expect(balance.conversions[0]).toMatchObject({
      transactionId: first.body.transactionId,
      cryptoType: 'USDC',
      cryptoAmount: '20.00000000',
      usdAmount: '20.00',
      netAmount: '19.40',
      feeAmount: '0.60',
      exchangeRate: '1.0000',
      status: 'completed',
      usedForSubscription: false,
      subscriptionMonths: null,
    });
    const tx = await eventually(
      () => stack.db('crypto_transactions').where({ id: first.body.transactionId }).first(),
      (row) => row?.status === 'completed',
    );
    expect(tx).toMatchObject({
      status: 'completed',
      service_fee_percent: '3.00',
      net_usd_cents: '1940',
      transaction_type: 'conversion',
    });
    expect(tx.transaction_hash).toMatch(/^0x[0-9a-f]{64}$/);
    const wallets = await eventually(
      () => agent.get('/api/crypto/wallets').then((r) => r.body),
      (w) => w[0]?.balance === '20.00000000',
    );
    expect(wallets[0].balance).toBe('20.00000000');
    // processing the same completion again credits nothing
    await stack.tickers.runOnce();
    const movements = await stack.store.readStream(`wallet-${userId}`);
    expect(movements).toHaveLength(1);
  }, 120_000);

  it('refuses a conversion below the minimum, and records a failed deposit without credit', async () => {
    const { agent } = await member();
    const below = await agent
      .post('/api/crypto/convert')
      .send({ cryptoAmount: '10', cryptoType: 'USDC', walletAddress: 'TXyz123' })
      .expect(422);
    expect(below.body.error).toBe('Minimum conversion is $10 USD after fees. Please increase your crypto amount');
    const failing = await agent
      .post('/api/crypto/convert')
      .send({ cryptoAmount: '50', cryptoType: 'USDT', walletAddress: 'TXyz123FAIL' })
      .expect(202);
    const history = await eventually(
      () => agent.get('/api/crypto/conversions').then((r) => r.body),
      (h) => h[0]?.status === 'failed',
    );
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({
      transactionId: failing.body.transactionId,
      status: 'failed',
      exchangeRate: '0.9998',
    });
    const tx = await eventually(
      () => stack.db('crypto_transactions').where({ id: failing.body.transactionId }).first(),
      (row) => row?.status === 'failed',
    );
    expect(tx.failure_reason).toBe('Deposit not received');
    expect((await agent.get('/api/crypto/balance')).body).toEqual({ totalUsd: '0.00', conversions: [] });
  }, 120_000);
});
