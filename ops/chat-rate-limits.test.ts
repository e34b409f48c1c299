import { chatRateLimits } from './config';

describe('chat rate limits from the environment', () => {
  it('defaults to 30 joins and 60 skips per member per minute', () => {
    expect(chatRateLimits({})).toEqual({ joinsPerMinute: 30, skipsPerMinute: 60 });
  });

  it('takes CHAT_JOINS_PER_MINUTE and CHAT_SKIPS_PER_MINUTE, and refuses what is not a whole number above 0', () => {
    expect(chatRateLimits({ CHAT_JOINS_PER_MINUTE: '10', CHAT_SKIPS_PER_MINUTE: '20' })).toEqual({
      joinsPerMinute: 10,
      skipsPerMinute: 20,
    });
    expect(() => chatRateLimits({ CHAT_JOINS_PER_MINUTE: '0' })).toThrow(
      /CHAT_JOINS_PER_MINUTE must be a whole number/,
    );
    expect(() => chatRateLimits({ CHAT_SKIPS_PER_MINUTE: 'lots' })).toThrow(/CHAT_SKIPS_PER_MINUTE/);
  });
});
