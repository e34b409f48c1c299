import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { ProcessManager } from '../domain/shared/process-manager';
import type { CryptoGateway } from '../domain/crypto/gateway';
import { PegRatesProvider } from '../domain/crypto/rates';
import { SandboxCryptoGateway } from '../domain/crypto/sandbox-gateway';
import { checkSettlements, conversionCredit, conversionSubmission } from '../domain/crypto/settlement-process';
import { processingConversions } from '../projections/crypto-transactions';
import { postgresConversionNumbers } from '../projections/crypto-conversion-numbers';
import type { Ticker } from './tickers';
import { BILLING_TICK_MS, billingTick } from '../domain/membership/billing';
import type { PaymentGateway } from '../domain/payments/gateway';
import { DevelopmentEmailSender } from '../domain/notifications/dev-email';
import type { EmailSender } from '../domain/notifications/email';
import { DEFAULT_FROM, SmtpEmailSender } from '../domain/notifications/smtp-email';
import { createSandboxGateway } from '../domain/payments/sandbox-gateway';
import { membershipActivationProcess } from '../domain/membership/activation-process';
import { createSandboxPayoutGateway } from '../domain/payouts/sandbox-gateway';
import type { PayoutGateway } from '../domain/payouts/gateway';
import {
  VERIFICATION_CHECK_MS,
  checkPaymentAccountVerifications,
} from '../domain/payouts/payment-account-verification';
import { pendingPaymentAccounts } from '../projections/payment-accounts';
import { creatorEarningsProcess } from '../domain/creators/earnings-process';
import { messageUnlockProcess } from '../domain/messaging/unlock-process';
import { tipProcess } from '../domain/tips/tip-process';
import { massMessageDeliveryProcess } from '../domain/messaging/mass-delivery-process';
import { ABANDONED_SIGN_UP_MS, giveBackAbandonedSignUp } from '../domain/accounts/register';
import { ABANDONED_CLAIM_MS, releaseAbandonedClaims } from '../domain/creators/promotions';
import { unsettledPromotionClaims } from '../projections/promotions';
import { abandonedSignUpPayments, chargeLocationByTransaction } from '../projections/payments';
import { pollDisputes } from '../domain/payments/dispute-poller';
import { creatorShareReversalProcess } from '../domain/payouts/share-reversal-process';
import { purchaseEndsProcess } from '../domain/payments/purchase-ends-process';
import { membershipsDueBy } from '../projections/users';
import { CREATOR_RENEWAL_TICK_MS, creatorRenewalTick } from '../domain/creators/subscription-renewal';
import { creatorSubscriptionsDue } from '../projections/creator-subscriptions';
import { housekeepingTicker } from './housekeeping';
import { publishDuePosts, SCHEDULED_POSTS_TICK_MS } from '../domain/posts/commands';
import { scheduledPostsDueBy } from '../projections/posts';
import { createFsStorage } from '../domain/media/fs-storage';
import { createS3Storage } from '../domain/media/s3-storage';
import { createMediaUrlSigner } from '../domain/media/signed-url';
import { mediaUrlSecret } from './media-url-secret';
import { createWatermarks, watermarkSecret } from '../domain/media/watermark';
import { autoSuspendPolicy, mediaStorageConfig } from './config';
import { autoSuspensionProcess } from '../domain/safety/auto-suspension-process';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import type { EventStore } from '../domain/event-store/port';
import { ffmpegAvailable } from '../domain/media/ffmpeg';
import { expiryFor, type MediaIngest } from '../domain/media/ingest';
import { startMediaProcessor, type ProcessorOptions } from '../domain/media/job-queue';
import { MEDIA_LIMITS, type MediaLimits } from '../domain/media/limits';
import { postgresMediaProgress } from '../domain/media/progress';
import { mediaStillProcessing } from '../projections/media';
import type { MediaStorage } from '../domain/media/storage';
import { twoFactorKeys } from '../domain/accounts/two-factor-keys';
import { accountExportProcess, type ExportDeps } from '../domain/accounts/export';
import { accountExport } from '../projections/account-export';
import { twoFactorMasterKey } from './two-factor-key';
import { checkIdentityVerifications, IDENTITY_CHECK_MS, type IdentityProvider } from '../domain/verification/commands';
import { createSandboxIdentityProvider } from '../domain/verification/sandbox-provider';
import { createSealer } from '../domain/verification/sealing';
import { pendingIdentityVerifications } from '../projections/verifications';
import { sandboxIdentityDelayMs, verificationKey } from './verification-key';

/**
 * The composition root: which adapter serves each port and which process managers run.
 * Each bounded context adds its own here.
 */
export function createPorts(infrastructure: { db: Knex; logger: Logger }): Record<string, unknown> {
  return {
    paymentGateway: createSandboxGateway(),
    payoutGateway: createSandboxPayoutGateway(),
    email: emailSender(infrastructure),
    cryptoRates: new PegRatesProvider(),
    cryptoGateway: new SandboxCryptoGateway(),
    conversionNumbers: postgresConversionNumbers(infrastructure.db),
    ...mediaDeliveryPorts(),
    // Identity verification (issue 20): the provider, and the key sealing documents at rest.
    identityProvider: createSandboxIdentityProvider(sandboxIdentityDelayMs()),
    identitySealer: createSealer(verificationKey(process.env.LIVELY_DATA_DIR || '.data')),
    safetyPolicy: autoSuspendPolicy(),
    twoFactorKeys: twoFactorKeys(twoFactorMasterKey(process.env.LIVELY_DATA_DIR || '.data')),
    // A member's copy of their data, built from the read models by the export process (issue 23).
    buildAccountExport: (userId: string, now: Date) => accountExport(infrastructure.db, userId, now),
  };
}

/** Media objects (S3 when S3_BUCKET is set, else LIVELY_DATA_DIR/media), the URL signer and the watermarks. */
function mediaDeliveryPorts(env: NodeJS.ProcessEnv = process.env): Record<string, unknown> {
  const config = mediaStorageConfig(env);
  const secret = mediaUrlSecret(env.LIVELY_DATA_DIR || '.data', env);
  return {
    mediaStorage: config.kind === 's3' ? createS3Storage(config) : createFsStorage(config.rootDir),
    mediaUrls: createMediaUrlSigner(secret, () => new Date()),
    mediaWatermarks: createWatermarks(watermarkSecret(secret)),
  };
}

/** Real delivery when SMTP_URL is set; otherwise the development outbox (`npm run ops -- mail`). */
function emailSender({ db, logger }: { db: Knex; logger: Logger }, env: NodeJS.ProcessEnv = process.env): EmailSender {
  return env.SMTP_URL
    ? new SmtpEmailSender(env.SMTP_URL, logger, env.SMTP_FROM || DEFAULT_FROM)
    : new DevelopmentEmailSender(db, logger);
}

export function allProcessManagers(ports: Record<string, unknown>): ProcessManager[] {
  return [
    membershipActivationProcess,
    messageUnlockProcess,
    creatorEarningsProcess,
    creatorShareReversalProcess,
    purchaseEndsProcess,
    conversionSubmission(ports.cryptoGateway as CryptoGateway),
    conversionCredit,
    autoSuspensionProcess,
    tipProcess,
    massMessageDeliveryProcess,
    accountExportProcess({
      build: ports.buildAccountExport as ExportDeps['build'],
      storage: ports.mediaStorage as MediaStorage,
    }),
  ];
}

/** Clock-driven work: settlement checks of crypto conversions, membership renewals, abandoned sign-ups, payment account verification, housekeeping. */
export function allTickers(ports: Record<string, unknown>): Ticker[] {
  return [
    {
      name: 'crypto-settlement',
      intervalMs: 500,
      tick: async ({ store, db, now }) =>
        void (await checkSettlements(
          store,
          ports.cryptoGateway as CryptoGateway,
          await processingConversions(db),
          now,
        )),
    },
    {
      name: 'membership-billing',
      intervalMs: BILLING_TICK_MS,
      tick: async ({ store, db, now }) => {
        // Candidates from the users read model; each membership stream re-checks before acting.
        const due = (at: Date) => membershipsDueBy(db, at);
        await billingTick({ store, gateway: ports.paymentGateway as PaymentGateway, due }, now);
      },
    },
    {
      // Creator-tier subscriptions: renewals, retries of declined ones, expiry (issue 21).
      name: 'creator-subscription-renewals',
      intervalMs: CREATOR_RENEWAL_TICK_MS,
      tick: async ({ store, db, now }) => {
        const due = (at: Date) => creatorSubscriptionsDue(db, at);
        await creatorRenewalTick({ store, gateway: ports.paymentGateway as PaymentGateway, due }, now);
      },
    },
    {
      // Sign-ups whose process died between the charge and the registration get their money back.
      name: 'sign-up-recovery',
      intervalMs: 5 * 60_000,
      tick: async ({ store, db, now }) => {
        const deps = { store, gateway: ports.paymentGateway as PaymentGateway };
        for (const paymentId of await abandonedSignUpPayments(db, new Date(now.getTime() - ABANDONED_SIGN_UP_MS)))
          await giveBackAbandonedSignUp(deps, paymentId, now);
      },
    },
    {
      // Promotion redemptions reserved by a subscribing request that died before its subscription started.
      name: 'promotion-claims',
      intervalMs: 5 * 60_000,
      tick: async ({ store, db, now }) => {
        const before = new Date(now.getTime() - ABANDONED_CLAIM_MS);
        await releaseAbandonedClaims(store, await unsettledPromotionClaims(db, before), now);
      },
    },
    {
      // Payment accounts pending verification: the payout processor's answer becomes an event.
      name: 'payment-account-verification',
      intervalMs: VERIFICATION_CHECK_MS,
      tick: async ({ store, db, now }) =>
        void (await checkPaymentAccountVerifications(
          store,
          ports.payoutGateway as PayoutGateway,
          await pendingPaymentAccounts(db),
          now,
        )),
    },
    {
      // Identity verifications handed to the provider: its answer becomes an event.
      name: 'identity-verification',
      intervalMs: IDENTITY_CHECK_MS,
      tick: async ({ store, db, now }) => {
        const provider = ports.identityProvider as IdentityProvider;
        await checkIdentityVerifications({ store, provider }, await pendingIdentityVerifications(db), now);
      },
    },
    {
      // Scheduled posts whose time has come are published (issue 21).
      name: 'scheduled-posts',
      intervalMs: SCHEDULED_POSTS_TICK_MS,
      tick: async ({ store, db, now }) => void (await publishDuePosts(store, await scheduledPostsDueBy(db, now), now)),
    },
    {
      // Chargebacks: the card processor's disputes become events (domain/payments/dispute-poller.ts).
      name: 'card-disputes',
      intervalMs: 2_000,
      tick: async ({ store, db, now }) => {
        const gateway = ports.paymentGateway as PaymentGateway;
        await pollDisputes({ store, gateway, locate: (id) => chargeLocationByTransaction(db, id) }, now);
      },
    },
    // Expired sessions, rate-limit rows, idempotency keys and sign-in throttling rows.
    housekeepingTicker,
  ];
}

/** What tests (or an operator) may change about media processing: `ports.mediaSettings`. */
export interface MediaSettings {
  /** Uploads arrive and are processed under `<dataDir>/media-work`; default LIVELY_DATA_DIR. */
  dataDir?: string;
  limits?: Partial<MediaLimits>;
  /** Default: whether ffmpeg and ffprobe are on PATH. */
  videoEnabled?: boolean;
  queue?: Pick<ProcessorOptions, 'pollMs' | 'superviseSeconds' | 'retryDelaySeconds'>;
}

/**
 * Media processing (issue 18): the pg-boss job queue and its workers, at most one job per core;
 * the API takes uploads in through `ports.mediaIngest`. Stored objects go to `ports.mediaStorage`.
 */
export async function startMedia(
  ports: Record<string, unknown>,
  infra: { databaseUrl: string; store: EventStore; db: Knex; clock: () => Date; logger: Logger },
): Promise<{ stop(): Promise<void> }> {
  const settings = (ports.mediaSettings ?? {}) as MediaSettings;
  const storage = ports.mediaStorage as MediaStorage;
  const dataDir = path.resolve(settings.dataDir ?? (process.env.LIVELY_DATA_DIR || '.data'));
  const limits = { ...MEDIA_LIMITS, ...settings.limits };
  const videoEnabled = settings.videoEnabled ?? ffmpegAvailable();
  if (!videoEnabled) infra.logger.warn('ffmpeg not found: video uploads are disabled; images only');
  const progress = postgresMediaProgress(infra.db);
  const workDir = path.join(dataDir, 'media-work');
  const processor = await startMediaProcessor({
    databaseUrl: infra.databaseUrl,
    deps: { store: infra.store, storage, limits, workDir, clock: infra.clock },
    progress,
    concurrency: availableParallelism(),
    log: (message, fields) => infra.logger.info({ ...fields, component: 'media' }, message),
    ...settings.queue,
  });
  const ingest: MediaIngest = { storage, jobs: processor.jobs, progress, limits, videoEnabled, uploadDir: workDir };
  ports.mediaIngest = ingest;
  // An upload whose process died between its event and its job: queue it again (a queued one is kept).
  for (const item of await mediaStillProcessing(infra.db))
    await processor.jobs.enqueue(item.id, { expireInSeconds: expiryFor(item.kind, item.bytes) });
  return processor;
}
