import { z } from 'zod';
import type { CurrentUser } from './accounts';
import type { BillingDirection, BillingKind, BillingMethod, BillingStatus } from './billing';
import type { ChatPreferences, ChatProfile } from './chat';
import type { CreatorSubscriptionStatus, RenewalSource } from './creator-subscriptions';
import type { CryptoType, CryptoWallet, TransactionStatus } from './crypto';
import type { PaymentAccountView } from './payouts';
import type { AccountStanding, BlockedUser, ReportTargetType } from './safety';
import { text } from './text';

/** The member's own account (issue 23): export everything about me, delete my account. */

export const PASSWORD_REQUIRED = 'Password is required';
export const WRONG_PASSWORD = 'Incorrect password';

/** `POST /api/account/delete`: the password, and the authenticator or recovery code when two-factor is on. */
export const deleteAccountSchema = z.object({
  password: text({ error: PASSWORD_REQUIRED }).pipe(z.string().min(1, PASSWORD_REQUIRED).max(200)),
  code: text()
    .max(32)
    .optional()
    .transform((code) => code?.replace(/\s+/g, '') || undefined),
});
export type DeleteAccountRequest = z.input<typeof deleteAccountSchema>;

/** `POST /api/account/delete` answers this, and the session is over. */
export interface AccountDeletedResponse {
  message: string;
}

/**
 * `GET /api/account/export`: a small account downloads at once (200, a JSON attachment); a
 * large one is prepared by a job (202 with this), and a notification links to the file at
 * `GET /api/account/exports/:exportId` when it is ready.
 */
export interface AccountExportPreparing {
  status: 'preparing';
  exportId: string;
  message: string;
}

/**
 * The export file: everything Lively holds about the member, newest first within each list.
 * Money is integer cents (`…Cents`), times are ISO strings. Nothing secret is in it: no password
 * or reset token hash, no payment gateway customer or connected-account id.
 */
export interface AccountExport {
  exportedAt: string;
  /** Null only for an account that no longer exists (every list is then empty). */
  profile: ExportProfile | null;
  chatProfile: ChatProfile | null;
  /** Null until the member saves matching preferences. */
  chatPreferences: ChatPreferences | null;
  /** Null for anyone who is not a creator. */
  creator: ExportCreator | null;
  posts: ExportPost[];
  comments: ExportComment[];
  messagesSent: ExportMessage[];
  messagesReceived: ExportMessage[];
  subscriptions: ExportSubscription[];
  /** The billing history: every charge, credit, conversion, unlock, tip and refund. */
  payments: ExportPayment[];
  /** The tips among `payments`, for reading at a glance. */
  tipsGiven: ExportTip[];
  conversions: ExportConversion[];
  wallets: CryptoWallet[];
  payouts: ExportPayout[];
  reports: ExportReport[];
  blocks: BlockedUser[];
}

/** The account, its site membership (`subscriptionStatus`, `lastPaymentDate`, `subscriptionEndDate`) and standing. */
export interface ExportProfile extends CurrentUser {
  createdAt: string;
  lastLoginAt: string | null;
  standing: AccountStanding;
  /** The USD balance. */
  usdBalanceCents: number;
}

export interface ExportCreator {
  bio: string;
  coverImageUrl: string | null;
  watermarkEnabled: boolean;
  registeredAt: string;
  tiers: ExportTier[];
  earnings: {
    availableCents: number;
    pendingCents: number;
    totalEarningsCents: number;
    nextAvailableAt: string | null;
  };
  /** Where payouts go (routing number masked). */
  paymentAccounts: Array<Omit<PaymentAccountView, 'stripeAccountId'>>;
}

export interface ExportTier {
  id: string;
  name: string;
  description: string;
  priceCents: number;
  features: string[];
  createdAt: string;
  updatedAt: string;
}

export interface ExportPost {
  id: string;
  title: string;
  content: string;
  mediaUrl: string | null;
  mediaIds: string[];
  visibility: 'public' | 'subscribers';
  /** `scheduled`: written for later and not out yet (`createdAt` null, `scheduledAt` set). */
  status: 'published' | 'scheduled';
  likeCount: number;
  commentCount: number;
  /** Removed by moderation. */
  removed: boolean;
  createdAt: string | null;
  scheduledAt: string | null;
}

export interface ExportComment {
  id: string;
  postId: string;
  postTitle: string | null;
  content: string;
  createdAt: string;
}

export interface ExportMessage {
  id: string;
  /** The receiver of a sent message, the sender of a received one. */
  otherMemberId: string;
  otherMemberName: string;
  /** Null for a received paid message not unlocked, and for a received message moderation removed. */
  content: string | null;
  mediaUrl: string | null;
  mediaIds: string[];
  isPaid: boolean;
  priceCents: number | null;
  /** A received paid message the member has not unlocked: its content is not in the export. */
  locked: boolean;
  isUnlocked: boolean;
  unlockedAt: string | null;
  removed: boolean;
  sentAt: string;
}

export interface ExportSubscription {
  id: string;
  creatorId: string;
  creatorName: string;
  tierId: string;
  tierName: string;
  priceCents: number;
  status: CreatorSubscriptionStatus;
  since: string;
  periodEnd: string;
  renewsAt: string | null;
  endsAt: string | null;
  renewFrom: RenewalSource;
  nextTier: { tierId: string; tierName: string; priceCents: number } | null;
}

export interface ExportPayment {
  id: string;
  occurredAt: string;
  kind: BillingKind;
  direction: BillingDirection;
  description: string;
  amountCents: number;
  refundedCents: number;
  currency: 'USD';
  method: BillingMethod;
  status: BillingStatus;
  /** A declined charge's or a refund's reason. */
  note: string | null;
  creatorId: string | null;
  creatorName: string | null;
  periodStart: string | null;
  periodEnd: string | null;
}

export interface ExportTip {
  id: string;
  creatorId: string | null;
  creatorName: string | null;
  amountCents: number;
  method: BillingMethod;
  status: BillingStatus;
  givenAt: string;
}

export interface ExportConversion {
  /** The public conversion number (null for conversions from before numbers). */
  number: number | null;
  transactionId: string;
  cryptoType: CryptoType;
  cryptoAmount: string;
  exchangeRate: string;
  walletAddress: string | null;
  usdAmountCents: number;
  feeCents: number;
  netCents: number;
  status: TransactionStatus;
  transactionHash: string | null;
  usedForSubscription: boolean;
  subscriptionMonths: number | null;
  createdAt: string;
  completedAt: string | null;
}

export interface ExportPayout {
  id: string;
  paymentAccountId: string;
  amountCents: number;
  processingFeeCents: number;
  netAmountCents: number;
  currency: string;
  status: string;
  failureReason: string | null;
  processedAt: string | null;
  createdAt: string;
}

/** A report the member filed (not what staff did about it: that is about the other member). */
export interface ExportReport {
  id: string;
  targetType: ReportTargetType;
  targetId: string;
  reason: string;
  details: string | null;
  status: string;
  createdAt: string;
  resolvedAt: string | null;
}
