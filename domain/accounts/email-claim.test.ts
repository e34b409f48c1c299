import { emailClaimDecider as decider, EMAIL_TAKEN, type EmailClaimCommand } from './email-claim';
import type { EmailClaimEvent } from './events';

const given = (events: EmailClaimEvent[]) => events.reduce(decider.evolve, decider.initialState);
const now = new Date('2026-01-01T00:00:00.000Z');
const at = now.toISOString();
const claim = (userId: string): EmailClaimCommand => ({ type: 'ClaimEmail', userId, email: 'a@b.c', now });
const release = (userId: string): EmailClaimCommand => ({
  type: 'ReleaseEmail',
  userId,
  email: 'a@b.c',
  reason: 'sign-up did not complete',
  now,
});
const claimed = (userId: string): EmailClaimEvent => ({ type: 'EmailClaimed', data: { userId, email: 'a@b.c', at } });
const released = (userId: string): EmailClaimEvent => ({
  type: 'EmailReleased',
  data: { userId, email: 'a@b.c', reason: 'sign-up did not complete', at },
});

describe('email claim decider', () => {
  it('claims a free address; the same user again writes nothing, anyone else gets the 409', () => {
    expect(decider.decide(claim('u1'), given([]))).toEqual([claimed('u1')]);
    expect(decider.decide(claim('u1'), given([claimed('u1')]))).toEqual([]);
    expect(() => decider.decide(claim('u2'), given([claimed('u1')]))).toThrow(EMAIL_TAKEN);
  });

  it('a released address can be claimed again, by anyone', () => {
    expect(decider.decide(release('u1'), given([claimed('u1')]))).toEqual([released('u1')]);
    expect(given([claimed('u1'), released('u1')]).owner).toBeNull();
    expect(decider.decide(claim('u2'), given([claimed('u1'), released('u1')]))).toEqual([claimed('u2')]);
  });

  it("only the owner releases: never another user's claim, and a second release writes nothing", () => {
    expect(decider.decide(release('u2'), given([claimed('u1')]))).toEqual([]);
    expect(decider.decide(release('u1'), given([claimed('u1'), released('u1')]))).toEqual([]);
    expect(given([claimed('u1'), released('u1'), claimed('u2'), released('u1')]).owner).toBe('u2');
  });
});
