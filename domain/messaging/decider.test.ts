import { deciderSpec } from '../shared/testing/decider-spec';
import { messageDecider, type MessageCommand } from './decider';

const at = new Date('2026-01-01T00:00:00Z');
const send: MessageCommand = {
  type: 'SendMessage',
  messageId: 'm',
  senderId: 'c',
  senderIsCreator: true,
  receiverId: 'r',
  content: '  hello  ',
  priceCents: 499,
  at,
};
const spec = deciderSpec(messageDecider);

describe('message decider', () => {
  it('trims, refuses empty text, and lets only creators set a price', () => {
    expect(spec.given().when(send).events[0].data).toMatchObject({ content: 'hello', priceCents: 499 });
    spec
      .given()
      .when({ ...send, content: '   ' })
      .thenThrows({ kind: 'validation' });
    spec
      .given()
      .when({ ...send, senderIsCreator: false })
      .thenThrows({ kind: 'forbidden' });
    spec
      .given()
      .when({ ...send, receiverId: 'c' })
      .thenThrows({ kind: 'unprocessable' });
  });

  it('carries uploaded media in order, at most 20, each once', () => {
    const sent = spec.given().when({ ...send, mediaIds: ['x', 'y'] }).events;
    expect(sent[0].data).toMatchObject({ mediaIds: ['x', 'y'] });
    expect(spec.fold(sent).mediaIds).toEqual(['x', 'y']);
    expect(spec.given().when(send).events[0].data).not.toHaveProperty('mediaIds');
    spec
      .given()
      .when({ ...send, mediaIds: Array.from({ length: 21 }, (_, i) => `m${i}`) })
      .thenThrows({ kind: 'validation' });
    spec
      .given()
      .when({ ...send, mediaIds: ['x', 'x'] })
      .thenThrows('The same media item is attached twice');
  });

  it('unlocks a paid message once, for its receiver only', () => {
    const state = spec.fold([spec.given().when(send).events[0]]);
    const unlock = (userId: string): MessageCommand => ({
      type: 'UnlockMessage',
      messageId: 'm',
      userId,
      paymentReference: 'p',
      at,
    });
    spec.on(state).when(unlock('c')).thenThrows({ kind: 'forbidden' });
    spec.on(state).when(unlock('x')).thenThrows({ kind: 'not_found' });
    const [unlocked] = spec.on(state).when(unlock('r')).events;
    expect(unlocked.data).toMatchObject({ priceCents: 499, senderId: 'c', receiverId: 'r' });
    spec.on(messageDecider.evolve(state, unlocked)).when(unlock('r')).thenThrows({ kind: 'conflict' });
  });

  it('refuses unlocking a free message', () => {
    const state = spec.fold([spec.given().when({ ...send, priceCents: null }).events[0]]);
    spec
      .on(state)
      .when({ type: 'UnlockMessage', messageId: 'm', userId: 'r', paymentReference: 'p', at })
      .thenThrows({ kind: 'conflict' });
  });
});
