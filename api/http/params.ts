import type { Router } from 'express';
import { refuse } from '../../domain/shared/errors';

/**
 * Path parameters are checked once, here, before any handler or query sees them: an id that
 * cannot exist is a 404 (as an unknown one is), never a SQL error ("invalid input syntax for
 * type uuid" was a 500). Every parameter name used by a route must have a format below; a route
 * module with an unknown one fails at start-up, so a new route cannot skip the check.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Tier ids: uuids, or the fallback tiers' names (`default-basic`). */
const SLUG = /^[A-Za-z0-9_-]{1,100}$/;
const WORD = /^[a-z]{1,40}$/;
/** Event stream names: `<category>-<id>` (the admin stream view). */
const STREAM_NAME = /^[A-Za-z][A-Za-z0-9]*-[A-Za-z0-9_:.-]{1,200}$/;

interface ParamFormat {
  pattern: RegExp;
  refusal: (name: string) => Error;
}

const unknownId = () => refuse.notFound('Not found: no record has this id');
const badStreamName = () => refuse.validation('Invalid stream name', { streamName: 'Invalid stream name' });

export const PARAM_FORMATS: Record<string, ParamFormat> = {
  id: { pattern: UUID, refusal: unknownId },
  userId: { pattern: UUID, refusal: unknownId },
  creatorId: { pattern: UUID, refusal: unknownId },
  commentId: { pattern: UUID, refusal: unknownId },
  tierId: { pattern: SLUG, refusal: unknownId },
  /** Chat rooms are named by the realtime service. */
  roomId: { pattern: SLUG, refusal: unknownId },
  streamName: { pattern: STREAM_NAME, refusal: badStreamName },
  /** Admin table names and payout actions: the routes 404 the unknown ones. */
  resource: { pattern: WORD, refusal: () => refuse.notFound('Not found') },
  action: { pattern: WORD, refusal: () => refuse.notFound('Not found') },
  /** A media item's stored file (`w640.webp`, `video-480.mp4`): the route 404s unknown ones. */
  variant: { pattern: /^[a-z0-9][a-z0-9.-]{0,40}$/, refusal: () => refuse.notFound('Media not found') },
};

interface Layer {
  route?: { path: string | string[] };
}

/** The parameter names of a route path. */
const namesIn = (path: string) => [...path.matchAll(/[:*](\w+)/g)].map((match) => match[1]);

/** The parameter names of a router's own routes. */
function paramNames(router: Router): Set<string> {
  const names = new Set<string>();
  for (const layer of (router as unknown as { stack: Layer[] }).stack) {
    for (const path of ([] as unknown[]).concat(layer.route?.path ?? [])) {
      if (typeof path === 'string') for (const name of namesIn(path)) names.add(name);
    }
  }
  return names;
}

function formatOf(name: string): ParamFormat {
  const format = PARAM_FORMATS[name];
  if (!format) throw new Error(`Route parameter :${name} has no format in api/http/params.ts`);
  return format;
}

/** Registers the format check of every parameter the router's routes use (express runs it before the route). */
export function validatedParams(router: Router): Router {
  for (const name of paramNames(router)) {
    const format = formatOf(name);
    router.param(name, (_req, _res, next, value) =>
      next(typeof value === 'string' && format.pattern.test(value) ? undefined : format.refusal(name)),
    );
  }
  return router;
}

/** Whether a request's parameters of `path` are well formed (the path's names are checked at start-up). */
export function paramsChecker(path: string): (params: Record<string, unknown>) => boolean {
  const formats = namesIn(path).map((name) => [name, formatOf(name).pattern] as const);
  return (params) =>
    formats.every(([name, pattern]) => typeof params[name] === 'string' && pattern.test(params[name] as string));
}
