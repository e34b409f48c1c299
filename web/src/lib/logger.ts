import type { ClientLog } from '@contracts/client-logs';
import { logLevels } from '@contracts/log-levels';
import { clientId } from './client-id';

/**
 * The browser's logger (SPEC §9 "Logging"): levels trace..fatal (default info), secrets
 * redacted, every entry with time, level, message and clientId. Entries go to the console;
 * error and fatal entries are also sent to POST /api/logs/client (failures ignored).
 */
export type LogLevel = (typeof logLevels)[number];

const SECRET = /password|token|secret|cvv|cardnumber|authorization/i;
const rank = (level: LogLevel) => logLevels.indexOf(level);
const threshold: LogLevel = 'info';

/** Replaces the values of secret-looking fields, at any depth. */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 6 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, SECRET.test(key) ? '[REDACTED]' : redact(item, depth + 1)]),
  );
}

function send(entry: ClientLog): void {
  try {
    void fetch('/api/logs/client', {
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json', 'X-Client-Id': clientId() },
      body: JSON.stringify(entry),
      keepalive: true,
    }).catch(() => undefined);
  } catch {
    // Logging never breaks the page.
  }
}

function log(level: LogLevel, message: string, context: Record<string, unknown> = {}): void {
  if (rank(level) < rank(threshold)) return;
  const entry = {
    time: new Date().toISOString(),
    level,
    message,
    clientId: clientId(),
    ...(redact(context) as Record<string, unknown>),
  };
  const write =
    level === 'fatal' || level === 'error'
      ? console.error
      : level === 'warn'
        ? console.warn
        : level === 'debug' || level === 'trace'
          ? console.debug
          : console.info;
  write(`[${level}] ${message}`, entry);
  if (rank(level) >= rank('error'))
    send({
      level,
      message: message.slice(0, 4000),
      time: entry.time,
      context: redact(context) as Record<string, unknown>,
    });
}

export const logger = {
  trace: (message: string, context?: Record<string, unknown>) => log('trace', message, context),
  debug: (message: string, context?: Record<string, unknown>) => log('debug', message, context),
  info: (message: string, context?: Record<string, unknown>) => log('info', message, context),
  warn: (message: string, context?: Record<string, unknown>) => log('warn', message, context),
  error: (message: string, context?: Record<string, unknown>) => log('error', message, context),
  fatal: (message: string, context?: Record<string, unknown>) => log('fatal', message, context),
};

/** Uncaught errors and unhandled rejections are logged with message and stack (SPEC §8). */
export function installGlobalErrorLogging(): void {
  window.addEventListener('error', (event) => {
    logger.error(event.message || 'Uncaught error', {
      stack: event.error instanceof Error ? event.error.stack : undefined,
      source: event.filename,
    });
  });
  window.addEventListener('unhandledrejection', (event) => {
    const reason = event.reason;
    logger.error(reason instanceof Error ? reason.message : `Unhandled rejection: ${String(reason)}`, {
      stack: reason instanceof Error ? reason.stack : undefined,
    });
  });
}
