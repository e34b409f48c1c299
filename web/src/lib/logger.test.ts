import '@/test-support/jsdom-setup';
import { installFakeFetch } from '@/test-support/fake-fetch';
import { logger, redact } from './logger';

describe('client logger', () => {
  it('redacts secret-looking fields at any depth', () => {
    expect(
      redact({
        email: 'a@b.c',
        password: 'x',
        nested: {
          paymentToken: 't',
          cardNumber: '4242',
          CVV: '1',
          list: [{ Authorization: 'Bearer', clientSecret: 's', ok: 1 }],
        },
      }),
    ).toEqual({
      email: 'a@b.c',
      password: '[REDACTED]',
      nested: {
        paymentToken: '[REDACTED]',
        cardNumber: '[REDACTED]',
        CVV: '[REDACTED]',
        list: [{ Authorization: '[REDACTED]', clientSecret: '[REDACTED]', ok: 1 }],
      },
    });
  });

  it('sends errors to /api/logs/client with time, level and no secrets', async () => {
    const calls = installFakeFetch(() => ({ status: 204 }));
    const spy = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    logger.error('boom', { password: 'hunter2', step: 3 });
    logger.info('quiet');
    await new Promise((resolve) => setTimeout(resolve, 0));
    spy.mockRestore();
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      url: '/api/logs/client',
      method: 'POST',
      body: { level: 'error', message: 'boom', context: { password: '[REDACTED]', step: 3 } },
    });
    expect((calls[0]!.body as { time: string }).time).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });
});
