/** Log levels, lowest first (pino's), in a zod-free module the web client's first load can import. */
export const logLevels = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;
