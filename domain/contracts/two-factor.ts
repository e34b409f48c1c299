import { z } from 'zod';
import { text } from './text';

/** Two-factor authentication (TOTP) payloads, shared by the API and the web client. */

export const INVALID_TWO_FACTOR_CODE = 'Invalid authentication code';
export const TWO_FACTOR_CODE_REQUIRED = 'Enter the code from your authenticator app or a recovery code';

/** A 6-digit code from the authenticator app, or a recovery code (`xxxxx-xxxxx`); spaces are ignored. */
export const twoFactorCodeSchema = z.object({
  code: text({ error: TWO_FACTOR_CODE_REQUIRED })
    .transform((code) => code.replace(/\s+/g, ''))
    .pipe(z.string().min(1, TWO_FACTOR_CODE_REQUIRED).max(32, INVALID_TWO_FACTOR_CODE)),
});
export type TwoFactorCodeRequest = z.infer<typeof twoFactorCodeSchema>;

/** `POST /api/auth/2fa/setup`: the new secret as a QR image and as the URL it encodes (its `secret` is the manual key). */
export interface TwoFactorSetup {
  otpauthUrl: string;
  qrDataUrl: string;
}

/** `POST /api/auth/2fa/enable`: shown once; each code signs in once instead of an authenticator code. */
export interface TwoFactorRecoveryCodes {
  recoveryCodes: string[];
}

/** `GET /api/auth/2fa`. */
export interface TwoFactorStatus {
  enabled: boolean;
  recoveryCodesLeft: number;
}

/** `POST /api/auth/login` with two-factor on: the password was right; `POST /api/auth/login/2fa` completes it. */
export interface TwoFactorRequired {
  twoFactorRequired: true;
}

export const RECOVERY_CODE_COUNT = 10;
