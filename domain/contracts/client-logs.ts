import { z } from 'zod';
import { logLevels } from './log-levels';
import { text } from './text';

/** POST /api/logs/client: a log entry from the browser (SPEC §9 logging). */
export const clientLogSchema = z.object({
  level: z.enum(logLevels).default('info'),
  message: text().min(1, 'Message is required').max(4000, 'Message too long'),
  context: z.record(z.string(), z.unknown()).optional(),
  time: text().max(64).optional(),
});
export type ClientLog = z.infer<typeof clientLogSchema>;
