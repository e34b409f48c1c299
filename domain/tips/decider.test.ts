import { deciderSpec } from '../shared/testing/decider-spec';
import { tipDecider, type TipCommand } from './decider';

const at = new Date('2026-11-01T00:00:00Z');
const request: TipCommand = {
  type: 'RequestTip',
  tipId: 't',
  tipperId: 'fan',
  creatorId: 'creator',
  amountCents: 500,
  postId: null,
  message: '  thanks!  ',
  source: 'balance',
  at,
};
const give: TipCommand = { type: 'GiveTip', transactionId: null, paymentReference: 'tip:t', at };
const spec = deciderSpec(tipDecider);

describe('tip decider', () => {
  it('requests a tip with its trimmed message, then gives it once', () => {
    const [requested] = spec.given().when(request).events;
    expect(requested.data).toMatchObject({ amountCents: 500, message: 'thanks!', source: 'balance' });
    const [given] = spec.given([requested]).when(give).events;
    expect(given).toMatchObject({
      type: 'TipGiven',
      data: { tipId: 't', creatorId: 'creator', paymentReference: 'tip:t' },
    });
    spec.given([requested, given]).when(give).thenNothing();
  });

  it('takes a retried request with the same terms, refuses other terms under the same tip', () => {
    const [requested] = spec.given().when(request).events;
    spec.given([requested]).when(request).thenNothing();
    spec
      .given([requested])
      .when({ ...request, amountCents: 600 })
      .thenThrows({ kind: 'conflict' });
  });

  it('refuses $1 to $500 outside, tipping yourself, and giving a tip never requested', () => {
    for (const amountCents of [99, 50_001, 100.5])
      spec
        .given()
        .when({ ...request, amountCents })
        .thenThrows('A tip is $1.00 to $500.00');
    expect(spec.given().when({ ...request, amountCents: 100 }).events).toHaveLength(1);
    expect(spec.given().when({ ...request, amountCents: 50_000 }).events).toHaveLength(1);
    spec
      .given()
      .when({ ...request, creatorId: 'fan' })
      .thenThrows('You cannot tip yourself');
    spec.given().when(give).thenThrows({ kind: 'not_found' });
  });
});
