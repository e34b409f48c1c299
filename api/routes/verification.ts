import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import busboy from 'busboy';
import { Router, type ErrorRequestHandler, type Request } from 'express';
import type { CurrentUser } from '../../domain/contracts/accounts';
import {
  VERIFICATION_FILE_BYTES,
  verificationDecisionSchema,
  verificationFieldsSchema,
  VERIFICATION_STATES,
  type AdminVerification,
  type AdminVerificationPage,
} from '../../domain/contracts/verification';
import { DomainError, refuse } from '../../domain/shared/errors';
import { newId } from '../../domain/shared/ids';
import {
  decideIdentityVerification,
  MediaRefusal,
  openIdentity,
  readIdentityFile,
  submitIdentityVerification,
  type IdentityFileKind,
  type IdentityProvider,
  type IdentityVerificationPorts,
  type Sealer,
} from '../../domain/verification/commands';
import type { MediaStorage } from '../../domain/media/commands';
import {
  decodeVerificationCursor,
  findVerification,
  verificationsPage,
  verificationStatusOf,
  type VerificationRecord,
} from '../../projections/verifications';
import { requestUser, requireRole } from '../http/access';
import { writeCounted } from '../http/multipart-upload';
import { parseWith } from '../http/validate';
import type { Api } from '../kit';

/**
 * Identity verification of creators (issue 20). The creator: `GET|POST /api/creators/verification`
 * (multipart: legalName, dateOfBirth, document, selfie). Compliance staff (role admin):
 * `GET /api/admin/verifications`, a submission's files (decrypted, each viewing an event) and
 * the decision on one the provider sent to review. The files never pass through media.
 */

const FILE_KINDS: readonly IdentityFileKind[] = ['document', 'selfie'];
const FILE_REQUIRED: Record<IdentityFileKind, string> = {
  document: 'A photo of your ID document is required',
  selfie: 'A selfie is required',
};

const tooLarge = () =>
  new MediaRefusal(
    413,
    'MEDIA_TOO_LARGE',
    `File too large: photos may be at most ${VERIFICATION_FILE_BYTES / 1024 / 1024} MB`,
  );

/** Refusals of a file answer with their own status (413, 415). */
const fileRefusals: ErrorRequestHandler = (error, _req, res, next) => {
  if (!(error instanceof MediaRefusal)) return next(error);
  res.status(error.status).json({ error: error.message, code: error.code });
};

interface ReceivedForm {
  fields: Record<string, string>;
  files: Partial<Record<IdentityFileKind, string>>;
}

/** The multipart form: text fields, and `document` and `selfie` streamed to files under `dir`, size-limited. */
async function receiveForm(req: Request, dir: string): Promise<ReceivedForm> {
  await mkdir(dir, { recursive: true });
  const form: ReceivedForm = { fields: {}, files: {} };
  const writes: Array<Promise<number>> = [];
  return new Promise<ReceivedForm>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { files: 2, fields: 10, parts: 12, fieldSize: 4096 } });
    } catch {
      return reject(refuse.validation('Send the form as multipart/form-data', { document: FILE_REQUIRED.document }));
    }
    parser.on('field', (name, value) => void (form.fields[name] = value));
    parser.on('file', (name, stream) => {
      const kind = FILE_KINDS.find((known) => known === name);
      if (!kind || form.files[kind]) return void stream.resume();
      const target = path.join(dir, `${kind}-${newId()}`);
      form.files[kind] = target;
      const written = writeCounted(stream, target, () => ({ bytes: VERIFICATION_FILE_BYTES, refusal: tooLarge }));
      written.catch(() => undefined); // settled below, once the whole request is read
      writes.push(written);
    });
    parser.on('error', () => reject(refuse.validation('The upload was cut off or is not valid multipart/form-data')));
    parser.on('close', () => void Promise.all(writes).then(() => resolve(form), reject));
    req.on('aborted', () => reject(refuse.validation('The upload was cut off')));
    req.pipe(parser);
  });
}

/** Field errors of the text fields and the files together, in the VALIDATION_ERROR shape. */
function validForm(form: ReceivedForm) {
  const missing = Object.fromEntries(
    FILE_KINDS.filter((kind) => !form.files[kind]).map((kind) => [kind, FILE_REQUIRED[kind]]),
  );
  try {
    const fields = parseWith(verificationFieldsSchema, form.fields);
    if (Object.keys(missing).length) throw refuse.validation(Object.values(missing)[0], missing);
    return { ...fields, files: form.files as Record<IdentityFileKind, string> };
  } catch (error) {
    if (!(error instanceof DomainError) || error.kind !== 'validation') throw error;
    const fields = { ...(error.details?.fields as Record<string, string>), ...missing };
    throw refuse.validation(error.message, fields);
  }
}

export function verificationRoutes(api: Api): Router {
  const router = Router();
  const { db, store } = api.deps;
  const ports = (): IdentityVerificationPorts => ({
    store,
    storage: api.deps.ports.mediaStorage as MediaStorage,
    provider: api.deps.ports.identityProvider as IdentityProvider,
    sealer: api.deps.ports.identitySealer as Sealer,
  });
  const workDir = () => path.join(path.resolve(process.env.LIVELY_DATA_DIR || '.data'), 'verification-work');

  async function creator(req: Request): Promise<CurrentUser> {
    const user = await requestUser(db, req);
    if (!user) throw refuse.unauthorized();
    if (!user.isCreator) throw refuse.forbidden('Identity verification is for creators', { code: 'CREATOR_REQUIRED' });
    return user;
  }

  router.get('/creators/verification', async (req, res) => {
    res.json(await verificationStatusOf(db, (await creator(req)).id));
  });

  router.post('/creators/verification', async (req, res) => {
    const user = await creator(req);
    const dir = path.join(workDir(), newId());
    try {
      const form = validForm(await receiveForm(req, dir));
      const result = await submitIdentityVerification(ports(), { creatorId: user.id, ...form }, api.context(req));
      await api.readYourWrites(result.position);
      res.status(202).json(await verificationStatusOf(db, user.id));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  // Compliance staff.
  const staff = requireRole(db, 'admin');

  /** The sealed name and birth date; a value this key cannot open (another key, tampering) says so, never a 500. */
  const readableIdentity = (sealed: string) => {
    try {
      return openIdentity(ports().sealer, sealed);
    } catch {
      return { legalName: 'Unreadable with this key', dateOfBirth: 'unknown' };
    }
  };

  const adminView = (record: VerificationRecord): AdminVerification => {
    const identity = readableIdentity(record.sealedIdentity);
    return {
      id: record.id,
      creatorId: record.creatorId,
      creatorName: record.creatorName,
      creatorEmail: record.creatorEmail,
      legalName: identity.legalName,
      dateOfBirth: identity.dateOfBirth,
      state: record.state,
      provider: record.provider,
      submittedAt: record.submittedAt,
      decidedAt: record.decidedAt,
      decidedBy: record.deciderName,
      reason: record.reason,
    };
  };

  const recordOr404 = async (req: Request) => {
    const record = await findVerification(db, String(req.params.id));
    if (!record) throw refuse.notFound('Verification not found');
    return record;
  };

  router.get('/admin/verifications', staff, async (req, res) => {
    const state = typeof req.query.state === 'string' && req.query.state ? req.query.state : undefined;
    if (state && (!VERIFICATION_STATES.includes(state as never) || state === 'not_started'))
      throw refuse.validation('Unknown state', { state: 'State must be pending, needs_review, verified or rejected' });
    const cursorText = typeof req.query.cursor === 'string' && req.query.cursor ? req.query.cursor : null;
    const cursor = cursorText ? decodeVerificationCursor(cursorText) : null;
    if (cursorText && !cursor) throw refuse.validation('Invalid cursor', { cursor: 'Invalid cursor' });
    const page = await verificationsPage(db, { state, cursor, limit: 25 });
    const body: AdminVerificationPage = { items: page.items.map(adminView), nextCursor: page.nextCursor };
    res.json(body);
  });

  for (const kind of FILE_KINDS)
    router.get(`/admin/verifications/:id/files/${kind}`, staff, async (req, res) => {
      const record = await recordOr404(req);
      const file = await readIdentityFile(
        ports(),
        { creatorId: record.creatorId, submissionId: record.id, kind, staffId: req.userId! },
        api.context(req),
      );
      res.setHeader('Content-Type', file.mime);
      res.setHeader('Content-Disposition', 'inline');
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Cache-Control', 'no-store, private');
      res.end(file.bytes);
    });

  router.post('/admin/verifications/:id/decide', staff, async (req, res) => {
    const body = parseWith(verificationDecisionSchema, req.body);
    const record = await recordOr404(req);
    const result = await decideIdentityVerification(
      store,
      { creatorId: record.creatorId, submissionId: record.id, ...body, staffId: req.userId! },
      api.context(req),
    );
    await api.readYourWrites(result.position);
    res.json(adminView((await findVerification(db, record.id)) ?? record));
  });

  router.use(fileRefusals);
  return router;
}
