import pino, { type Logger } from 'pino';

const SECRET_FIELD = /password|token|secret|cvv|cardnumber|authorization/i;

/** A copy of `value` with every field whose name looks secret replaced by [REDACTED], at any depth. */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (value instanceof Error) return { message: value.message, stack: value.stack, name: value.name };
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) copy[key] = SECRET_FIELD.test(key) ? '[REDACTED]' : redact(field, depth + 1);
  return copy;
}

export function createLogger(options: { level?: string; destination?: pino.DestinationStream } = {}): Logger {
  return pino(
    {
      level: options.level ?? process.env.LOG_LEVEL ?? 'info',
      base: { service: 'lively' },
      formatters: { log: (object) => redact(object) as Record<string, unknown> },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    options.destination,
  );
}
