import { deciderSpec } from '../shared/testing/decider-spec';
import { massMessageDecider, type MassMessageCommand } from './mass-decider';

const at = new Date('2026-11-01T00:00:00Z');
const send: MassMessageCommand = {
  type: 'SendMassMessage',
  massMessageId: 'mm',
  creatorId: 'c',
  senderIsCreator: true,
  segment: { kind: 'active' },
  content: '  New set out now  ',
  priceCents: 499,
  recipientIds: ['a', 'b', 'a', 'c'],
  at,
};
const spec = deciderSpec(massMessageDecider);

describe('mass message decider', () => {
  it('sends once to each recipient but the creator, with trimmed text', () => {
    const [sent] = spec.given().when(send).events;
    expect(sent.data).toMatchObject({ content: 'New set out now', priceCents: 499, recipientIds: ['a', 'b'] });
    spec.given([sent]).when(send).thenNothing();
  });

  it('refuses a member who is not a creator, empty text and an empty segment', () => {
    spec
      .given()
      .when({ ...send, senderIsCreator: false })
      .thenThrows({ kind: 'forbidden' });
    spec
      .given()
      .when({ ...send, content: ' ' })
      .thenThrows({ kind: 'validation' });
    spec
      .given()
      .when({ ...send, recipientIds: ['c'] })
      .thenThrows('No one is in this segment yet');
  });

  it('records the delivery once', () => {
    const [sent] = spec.given().when(send).events;
    const record: MassMessageCommand = { type: 'RecordMassDelivery', deliveredCount: 2, at };
    const [delivered] = spec.given([sent]).when(record).events;
    expect(delivered.data).toMatchObject({ massMessageId: 'mm', creatorId: 'c', deliveredCount: 2 });
    spec.given([sent, delivered]).when(record).thenNothing();
    spec.given().when(record).thenThrows({ kind: 'not_found' });
  });
});
