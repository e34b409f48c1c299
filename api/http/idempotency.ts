import { createHash } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Knex } from 'knex';

const KEY = /^[A-Za-z0-9_.:-]{1,128}$/;

/**
 * `Idempotency-Key` for money commands: the same key and body get the first answer again;
 * the same key with another body, or while the first is still running, is a 409.
 * Keys are scoped per user.
 */
export function idempotency(db: Knex): RequestHandler {
  return async (req, res, next) => {
    const header = req.get('Idempotency-Key');
    if (!header) return next();
    if (!KEY.test(header)) {
      res.status(400).json({
        error: 'Idempotency-Key must be 1-128 letters, digits or _.:-',
        code: 'VALIDATION_ERROR',
        fields: { 'Idempotency-Key': 'Invalid key' },
      });
      return;
    }
    const key = `${req.userId ?? 'anonymous'}:${req.method}:${req.path}:${header}`;
    const requestHash = createHash('sha256')
      .update(JSON.stringify(req.body ?? null))
      .digest('hex');
    const inserted = await db('idempotency_keys')
      .insert({ key, request_hash: requestHash })
      .onConflict('key')
      .ignore()
      .returning('key');
    if (inserted.length === 0) {
      const previous = await db('idempotency_keys').where({ key }).first();
      if (previous.request_hash !== requestHash) {
        res
          .status(409)
          .json({ error: 'This Idempotency-Key was used with a different request', code: 'IDEMPOTENCY_KEY_REUSED' });
      } else if (previous.status === null) {
        res.status(409).json({
          error: 'A request with this Idempotency-Key is still being processed',
          code: 'IDEMPOTENCY_IN_PROGRESS',
        });
      } else {
        res.setHeader('Idempotent-Replayed', 'true');
        res.status(previous.status).json(previous.body);
      }
      return;
    }
    // Record the answer; a failure with a 5xx frees the key so the client can retry.
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      const status = res.statusCode;
      const saving =
        status >= 500
          ? db('idempotency_keys').where({ key }).delete()
          : db('idempotency_keys')
              .where({ key })
              .update({ status, body: JSON.stringify(body ?? null) });
      saving.then(
        () => json(body),
        () => json(body),
      );
      return res;
    };
    next();
  };
}
