import pino, { type Logger } from 'pino';

// SPEC §9's names (password, token, secret, cvv, cardNumber, authorization) and their usual spellings.
const SECRET_FIELD = /password|passwd|pwd|token|secret|cvv|cvc|card[_-]?number|authorization|cookie/i;

/**
 * Free text can carry what a field name would have flagged ("password=…", a pasted card
 * number), so text is scrubbed too. Order matters: a value after "token=" goes whole before
 * its digits could be read as a card number. Card numbers: any run of 13 or more digits, single
 * spaces or dashes between them allowed (SPEC: 13-19; longer runs go too, so extra digits
 * typed after a card number cannot shield it).
 */
const TEXT_PATTERNS: Array<[RegExp, string]> = [
  [
    /(password|passwd|pwd|passcode|secret|token|api[_-]?key)([\w-]*["']?\s*[:=]\s*)("[^"]*"|'[^']*'|[^\s"'&,;]+)/gi,
    '$1$2[REDACTED]',
  ],
  [/\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, '$1 [REDACTED]'],
  [/\b(cvv2?|cvc2?|csc|security code)\b(\W{0,3}(?:is\s+)?)\d{3,4}\b/gi, '$1$2[REDACTED]'],
  // Not inside a word or a dash-joined id (a uuid's all-digit segments are not a card).
  [/(?<![\w-])\d(?:[ -]?\d){12,}(?![\w-])/g, '[REDACTED]'],
];

/** `text` with card numbers, CVV-like and password-like values replaced by [REDACTED]. */
export function redactText(text: string): string {
  return TEXT_PATTERNS.reduce((result, [pattern, replacement]) => result.replace(pattern, replacement), text);
}

/**
 * A copy of `value` with every field whose name looks secret replaced by [REDACTED] and every
 * string scrubbed by redactText, at any depth (past a depth limit nothing is kept: unscanned
 * is unsafe).
 */
export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth > 8) return '[TOO DEEP]';
  if (value instanceof Error)
    return { message: redactText(value.message), stack: value.stack && redactText(value.stack), name: value.name };
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value))
    copy[key] = SECRET_FIELD.test(key) ? '[REDACTED]' : redact(field, depth + 1);
  return copy;
}

export function createLogger(options: { level?: string; destination?: pino.DestinationStream } = {}): Logger {
  return pino(
    {
      level: options.level ?? process.env.LOG_LEVEL ?? 'info',
      base: { service: 'lively' },
      formatters: { log: (object) => redact(object) as Record<string, unknown> },
      // The formatter sees fields only; the message strings pass through here.
      hooks: {
        logMethod(args, method) {
          method.apply(
            this,
            args.map((arg) => (typeof arg === 'string' ? redactText(arg) : arg)) as Parameters<typeof method>,
          );
        },
      },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    options.destination,
  );
}
