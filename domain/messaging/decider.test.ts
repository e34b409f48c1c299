import { DomainError } from '../shared/errors';
import { messageDecider, type MessageCommand } from './decider';

const at = new Date('2026-01-01T00:00:00Z');
const send: MessageCommand = { type: 'SendMessage', messageId: 'm', senderId: 'c', senderIsCreator: true, receiverId: 'r', content: '  hello  ', priceCents: 499, at };
const kind = (run: () => unknown) => {
  try {
    run();
    return 'none';
  } catch (error) {
    return (error as DomainError).kind;
  }
};

describe('message decider', () => {
  it('trims, refuses empty text, and lets only creators set a price', () => {
    expect(messageDecider.decide(send, messageDecider.initialState)[0].data).toMatchObject({ content: 'hello', priceCents: 499 });
    expect(kind(() => messageDecider.decide({ ...send, content: '   ' }, messageDecider.initialState))).toBe('validation');
    expect(kind(() => messageDecider.decide({ ...send, senderIsCreator: false }, messageDecider.initialState))).toBe('forbidden');
    expect(kind(() => messageDecider.decide({ ...send, receiverId: 'c' }, messageDecider.initialState))).toBe('unprocessable');
  });

  it('unlocks a paid message once, for its receiver only', () => {
    const state = messageDecider.evolve(messageDecider.initialState, messageDecider.decide(send, messageDecider.initialState)[0]);
    const unlock = (userId: string): MessageCommand => ({ type: 'UnlockMessage', messageId: 'm', userId, paymentReference: 'p', at });
    expect(kind(() => messageDecider.decide(unlock('c'), state))).toBe('forbidden');
    expect(kind(() => messageDecider.decide(unlock('x'), state))).toBe('not_found');
    const [unlocked] = messageDecider.decide(unlock('r'), state);
    expect(unlocked.data).toMatchObject({ priceCents: 499, senderId: 'c', receiverId: 'r' });
    expect(kind(() => messageDecider.decide(unlock('r'), messageDecider.evolve(state, unlocked)))).toBe('conflict');
  });

  it('refuses unlocking a free message', () => {
    const state = messageDecider.evolve(messageDecider.initialState, messageDecider.decide({ ...send, priceCents: null }, messageDecider.initialState)[0]);
    expect(kind(() => messageDecider.decide({ type: 'UnlockMessage', messageId: 'm', userId: 'r', paymentReference: 'p', at }, state))).toBe('conflict');
  });
});
