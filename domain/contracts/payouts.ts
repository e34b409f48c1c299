import { z } from 'zod';
import { text } from './text';
import { parseCents, UNSIGNED_CENTS } from './money';

/** Creator payouts over HTTP (SPEC §3 payment_accounts/payouts payloads, §5 rules), shared by API and web. */

export const PAYMENT_ACCOUNT_TYPES = ['stripe', 'bank_account'] as const;
export const PAYOUT_STATUSES = ['pending', 'processing', 'completed', 'failed', 'cancelled'] as const;
export type PayoutStatusName = (typeof PAYOUT_STATUSES)[number];

/** Payout processing fee: 1% of the amount, rounded half up to the cent (the one place it is defined). */
export const PAYOUT_FEE_BASIS_POINTS = 100;

export function payoutFee(amountCents: number): { processingFeeCents: number; netAmountCents: number } {
  const processingFeeCents = Math.floor((amountCents * PAYOUT_FEE_BASIS_POINTS + 5000) / 10000);
  return { processingFeeCents, netAmountCents: amountCents - processingFeeCents };
}

/** Payout history shows the 5 most recent (SPEC §9). */
export const PAYOUT_HISTORY_SHOWN = 5;

/** An absent optional field: missing, null or blank. */
const blankToUndefined = (value: unknown) =>
  value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value;

export const paymentAccountSchema = z
  .object({
    type: z.enum(PAYMENT_ACCOUNT_TYPES, { error: 'Type must be stripe or bank_account' }).default('stripe'),
    accountHolderName: text({ error: 'Account holder name is required' })
      .trim()
      .min(1, 'Account holder name is required')
      .max(100, 'Account holder name too long'),
    bankAccountLast4: z.preprocess(
      blankToUndefined,
      text({ error: 'Last 4 digits must be text' })
        .trim()
        .max(4, 'Last 4 digits must be at most 4 characters')
        .regex(/^\d+$/, 'Last 4 digits must be digits')
        .optional(),
    ),
    routingNumber: z.preprocess(
      blankToUndefined,
      text({ error: 'Routing number must be text' })
        .trim()
        .regex(/^\d{9}$/, 'Routing number must be 9 digits')
        .optional(),
    ),
    isDefault: z.boolean({ error: 'isDefault must be true or false' }).optional(),
  })
  .superRefine((form, ctx) => {
    if (form.type !== 'bank_account' && form.routingNumber !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['routingNumber'], message: 'Routing number is only for bank accounts' });
    }
    if (form.type !== 'bank_account' && form.bankAccountLast4 !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['bankAccountLast4'],
        message: 'Bank account digits are only for bank accounts',
      });
    }
  });
export type PaymentAccountRequest = z.input<typeof paymentAccountSchema>;

/** USD with at most 2 decimals, as a string or a number ("12.34", 12.34). */
export const usdAmountField = z
  .union([z.string(), z.number()], { error: 'Amount is required' })
  .transform((value, ctx) => {
    const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value.trim();
    const cents = parseCents(text, UNSIGNED_CENTS);
    if (cents === null) {
      ctx.addIssue({ code: 'custom', message: 'Amount must be a positive USD amount with at most 2 decimals' });
      return z.NEVER;
    }
    return cents;
  });

export const payoutRequestSchema = z.object({
  paymentAccountId: text({ error: 'Please select a payment account' })
    .trim()
    .min(1, 'Please select a payment account')
    .max(100, 'Invalid payment account'),
  /** In cents after parsing; must be the whole available balance. */
  amount: usdAmountField,
});

export interface PayoutDashboard {
  availableBalance: string;
  pendingBalance: string;
  totalEarnings: string;
  /** When pending earnings next become available (ISO), or null. */
  nextPayoutDate: string | null;
}

export interface PaymentAccountView {
  id: string;
  type: (typeof PAYMENT_ACCOUNT_TYPES)[number];
  accountHolderName: string;
  bankAccountLast4: string | null;
  /** Masked to its last 4 digits. */
  routingNumber: string | null;
  stripeAccountId: string | null;
  isDefault: boolean;
  isVerified: boolean;
  /** SPEC §4: verified or pending verification; 'failed' when the payout processor refused it. */
  verificationStatus: PaymentAccountVerificationStatus;
  verificationFailureReason: string | null;
  createdAt: string;
}

export type PaymentAccountVerificationStatus = 'verified' | 'pending' | 'failed';

export interface PayoutView {
  id: string;
  creatorId: string;
  paymentAccountId: string;
  /** Numeric strings with 2 decimals. */
  amount: string;
  processingFee: string;
  netAmount: string;
  currency: 'USD';
  status: PayoutStatusName;
  gatewayTransactionId: string | null;
  failureReason: string | null;
  processedAt: string | null;
  createdAt: string;
}
