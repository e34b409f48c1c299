import { deciderSpec } from '../shared/testing/decider-spec';
import { notificationsDecider } from './decider';
import type { NotificationsEvent } from './events';

const spec = deciderSpec(notificationsDecider);
const at = new Date('2026-03-01T10:00:00.000Z');
const readAll = (upTo: string): NotificationsEvent => ({
  type: 'NotificationsRead',
  data: { userId: 'u1', ids: null, upTo, at: upTo },
});

describe('notifications decider', () => {
  it('marks the named notifications read, each id once', () => {
    spec
      .given()
      .when({ type: 'MarkNotificationsRead', userId: 'u1', ids: ['n1', 'n2', 'n1'], at })
      .then([
        { type: 'NotificationsRead', data: { userId: 'u1', ids: ['n1', 'n2'], upTo: null, at: at.toISOString() } },
      ]);
  });

  it('refuses an empty list of ids', () => {
    spec.given().when({ type: 'MarkNotificationsRead', userId: 'u1', ids: [], at }).thenThrows({ kind: 'validation' });
  });

  it('marks all read up to the moment of the command', () => {
    spec
      .given([readAll('2026-02-01T00:00:00.000Z')])
      .when({ type: 'MarkAllNotificationsRead', userId: 'u1', at })
      .then([readAll(at.toISOString())]);
  });

  it('writes nothing when everything up to that moment is already marked', () => {
    spec
      .given([readAll(at.toISOString())])
      .when({ type: 'MarkAllNotificationsRead', userId: 'u1', at })
      .thenNothing();
  });

  it('keeps the newest read-all mark whatever the order of id marks', () => {
    const state = spec.fold([
      readAll(at.toISOString()),
      { type: 'NotificationsRead', data: { userId: 'u1', ids: ['n1'], upTo: null, at: '2026-03-02T00:00:00.000Z' } },
      readAll('2026-01-01T00:00:00.000Z'),
    ]);
    expect(state.readAllUpTo).toBe(at.toISOString());
  });
});
