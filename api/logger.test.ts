import { Writable } from 'node:stream';
import { createLogger, redactText } from './logger';

const capture = () => {
  const lines: string[] = [];
  const destination = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
  return { lines, logger: createLogger({ level: 'trace', destination }) };
};

describe('free-text redaction', () => {
  it('replaces card numbers, CVV-like and password-like values, keeping the words around them', () => {
    expect(redactText('card 4111111111111111 cvv 737 password=Hunter2Secret!')).toBe(
      'card [REDACTED] cvv [REDACTED] password=[REDACTED]',
    );
    expect(redactText('paid with 4111 1111 1111 1111 and 3782-822463-10005, CVC: 1234')).toBe(
      'paid with [REDACTED] and [REDACTED], CVC: [REDACTED]',
    );
    expect(
      redactText('pwd: abc {"newPassword":"a b"} /reset-password?token=xyz&x=1 Authorization: Bearer abcdefghijk'),
    ).toBe(
      'pwd: [REDACTED] {"newPassword":[REDACTED]} /reset-password?token=[REDACTED]&x=1 Authorization: Bearer [REDACTED]',
    );
  });

  it('leaves ids, times and short numbers alone', () => {
    const text =
      'request 550e8400-e29b-41d4-a716-446655440000 at 2025-01-01T12:00:00.737Z order 123456789012 position 1234567/890';
    expect(redactText(text)).toBe(text);
  });

  it('applies to the server log: messages, string fields at any depth, and errors', () => {
    const { lines, logger } = capture();
    const deep = { a: { b: { c: { d: { e: { f: { g: { h: { i: { j: { note: 'x' } } } } } } } } } } };
    logger.error(
      { err: new Error('declined card 4111111111111111'), note: 'user typed password=Hunter2Secret!', deep },
      'retrying with cvv 737',
    );
    const log = lines.join('');
    expect(log).not.toMatch(/4111111111111111|Hunter2Secret|cvv 737/);
    expect(JSON.parse(lines[0])).toMatchObject({
      msg: 'retrying with cvv [REDACTED]',
      note: 'user typed password=[REDACTED]',
    });
    expect(log).toContain('[TOO DEEP]');
  });
});
