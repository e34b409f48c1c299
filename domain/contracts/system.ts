import { z } from 'zod';
import { text } from './text';

/** The admin System page's payloads (engineers: projections, rebuilds, the event log). */

export interface ProjectionView {
  name: string;
  version: number;
  checkpoint: string;
  /** Events in the log after the checkpoint; null where the event store cannot count them. */
  lag: number | null;
  /** caught up | behind | not started | rebuilding */
  state: string;
}

export interface SystemStatusView {
  database: 'ok' | 'down';
  eventStore: { kind: string; status: 'ok' | 'down'; head: string | null };
  projections: ProjectionView[];
  eventTypes: Array<{ type: string; count: number }>;
}

export interface RebuildJobView {
  id: string;
  /** A projection name, or 'all'. */
  target: string;
  /** The projection being built now. */
  projection: string | null;
  phase: 'queued' | 'building' | 'switching' | 'done' | 'failed';
  eventsRead: number;
  eventsTotal: number;
  eventsPerSecond: number;
  etaSeconds: number | null;
  startedAt: string;
  finishedAt: string | null;
  error: string | null;
  completed: string[];
}

export const rebuildRequestSchema = z.object({
  projection: text({ error: 'Choose a projection' })
    .trim()
    .min(1, 'Choose a projection')
    .max(200, 'Unknown projection'),
});

const optionalText = (max: number, message: string) =>
  text()
    .trim()
    .max(max, message)
    .optional()
    .transform((value) => (value ? value : undefined));

const optionalTime = text()
  .trim()
  .max(40, 'Invalid date')
  .optional()
  .refine((value) => !value || !Number.isNaN(Date.parse(value)), 'Invalid date')
  .transform((value) => (value ? new Date(value).toISOString() : undefined));

export const eventQuerySchema = z.object({
  type: optionalText(200, 'Event type too long'),
  stream: optionalText(300, 'Stream name too long'),
  from: optionalTime,
  to: optionalTime,
  /** A position "commit/prepare": events before it (the next page, newest first). */
  before: text()
    .trim()
    .regex(/^\d{1,20}\/\d{1,20}$/, 'Invalid cursor')
    .optional(),
  limit: z.coerce
    .number({ error: 'Invalid limit' })
    .int('Invalid limit')
    .min(1, 'Invalid limit')
    .max(200, 'Invalid limit')
    .default(50),
});

export interface LogEventView {
  eventId: string;
  streamId: string;
  revision: string;
  position: string;
  type: string;
  createdAt: string;
  data: unknown;
  metadata: Record<string, unknown>;
}

export interface EventPage {
  events: LogEventView[];
  /** Cursor of the next (older) page; null at the start of the log. */
  next: string | null;
}
