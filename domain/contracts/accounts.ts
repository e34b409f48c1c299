import { z } from 'zod';
import { text } from './text';

/** HTTP payloads of the accounts context (SPEC §3 payloads, §5 messages), shared by API and web. */

export const emailField = text({ error: 'Email is required' })
  .trim()
  .min(1, 'Email is required')
  .max(254, 'Invalid email address')
  .pipe(z.email('Invalid email address'));

export const passwordRules = text({ error: 'Password is required' })
  .min(8, 'Password must be at least 8 characters')
  .max(200, 'Password too long')
  .regex(
    /(?=.*[a-z])(?=.*[A-Z])(?=.*\d)/,
    'Password must contain at least one lowercase letter, one uppercase letter, and one number',
  );

export const loginSchema = z.object({
  email: emailField,
  password: text({ error: 'Password is required' }).min(1, 'Password is required').max(200, 'Password too long'),
});
export type LoginRequest = z.infer<typeof loginSchema>;

/** Payment tokens from the card provider, or the client's development placeholder (`dev_tok_…`). */
export const paymentTokenField = text({ error: 'Payment information is required' })
  .trim()
  .min(1, 'Payment information is required')
  .max(200, 'Invalid payment token');

export const registerFormSchema = z
  .object({
    firstName: text({ error: 'First name is required' })
      .trim()
      .min(1, 'First name is required')
      .max(100, 'First name too long'),
    lastName: text({ error: 'Last name is required' })
      .trim()
      .min(1, 'Last name is required')
      .max(100, 'Last name too long'),
    email: emailField,
    password: passwordRules,
    confirmPassword: text({ error: "Passwords don't match" }),
  })
  .refine((form) => form.password === form.confirmPassword, {
    message: "Passwords don't match",
    path: ['confirmPassword'],
  });

/** The shared signup schema: the form, the email lowercased, and a payment token. */
export const registerSchema = z
  .object({
    firstName: text({ error: 'First name is required' })
      .trim()
      .min(1, 'First name is required')
      .max(100, 'First name too long'),
    lastName: text({ error: 'Last name is required' })
      .trim()
      .min(1, 'Last name is required')
      .max(100, 'Last name too long'),
    email: emailField.transform((email) => email.toLowerCase()),
    password: passwordRules,
    confirmPassword: text({ error: "Passwords don't match" }),
    paymentToken: paymentTokenField,
  })
  .refine((form) => form.password === form.confirmPassword, {
    message: "Passwords don't match",
    path: ['confirmPassword'],
  });

export const resetRequestSchema = z.object({ email: emailField });

export const resetPasswordSchema = z
  .object({
    token: text({ error: 'Reset token is required' })
      .trim()
      .min(1, 'Reset token is required')
      .max(200, 'Invalid reset token'),
    password: passwordRules,
    confirmPassword: text({ error: "Passwords don't match" }),
  })
  .refine((form) => form.password === form.confirmPassword, {
    message: "Passwords don't match",
    path: ['confirmPassword'],
  });

/**
 * What is wrong with a card expiry typed as MM/YY at `now` (the caller's clock, so tests can fix it), or null.
 * A card is good through the last day of its month; the month is 01-12.
 */
export function cardExpiryProblem(expiry: string, now: Date): string | null {
  const match = /^(\d{2})\/(\d{2})$/.exec(expiry);
  const month = match ? Number(match[1]) : 0;
  if (!match || month < 1 || month > 12) return 'Please enter expiration in MM/YY format';
  const year = 2000 + Number(match[2]);
  const expired = year < now.getFullYear() || (year === now.getFullYear() && month < now.getMonth() + 1);
  return expired ? 'Your card has expired' : null;
}

/** The manual card fallback's checks (SPEC §5) at `now`, run in the browser before a token is made. */
export const manualCardSchema = (now: Date) =>
  z
    .object({
      cardNumber: text().trim(),
      expiry: text().trim(),
      cvv: text().trim(),
    })
    .superRefine((card, ctx) => {
      if (!card.cardNumber || !card.expiry || !card.cvv) {
        ctx.addIssue({ code: 'custom', message: 'Please complete all payment fields', path: ['cardNumber'] });
        return;
      }
      if (card.cardNumber.replace(/\s/g, '').length < 13)
        ctx.addIssue({ code: 'custom', message: 'Please enter a valid card number', path: ['cardNumber'] });
      const expiryProblem = cardExpiryProblem(card.expiry, now);
      if (expiryProblem) ctx.addIssue({ code: 'custom', message: expiryProblem, path: ['expiry'] });
      if (card.cvv.length < 3) ctx.addIssue({ code: 'custom', message: 'Please enter a valid CVV', path: ['cvv'] });
    });

/** GET /api/auth/user. */
export interface CurrentUser {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  profileImageUrl: string | null;
  role: 'admin' | 'creator' | 'subscriber';
  isCreator: boolean;
  ageVerified: boolean;
  subscriptionStatus: string;
  lastPaymentDate: string | null;
  subscriptionEndDate: string | null;
  /** When the account was created ("member since"); the server always sends it. */
  createdAt?: string;
}

/** Prefix of the browser's development placeholder payment tokens (SPEC §4). */
export const DEV_TOKEN_PREFIX = 'dev_tok_';

/** POST /api/auth/register (201) and POST /api/auth/login: `message` is the toast's text. */
export interface AuthSuccessResponse {
  message: string;
  user: CurrentUser | null;
}

/** POST /api/auth/reset-password-request and /api/auth/reset-password. */
export interface MessageResponse {
  message: string;
}
