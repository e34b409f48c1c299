/**
 * The accounts context's way in: the use cases the API calls (sign-up, sign-in, password
 * reset), the texts they answer with, and the ports they take. api/ and realtime/ import this
 * file and events.ts only; the rest of the folder is its inside.
 */
export { registerUser, WELCOME_MESSAGE } from './register';
export { login, type UnknownEmailFailures } from './login';
export { PASSWORD_RESET_MESSAGE, RESET_REQUEST_MESSAGE, requestPasswordReset, resetPassword } from './password-reset';
export { hashPassword } from './passwords';
export { confirmOwner, deleteAccount } from './delete-account';
export { accountExportProcess, exportKey, exportsPrefix, requestAccountExport } from './export';
export { invalidCredentials, noLoginFailures, type LoginFailures } from './decider';
export type { PaymentGateway } from '../payments/gateway';
export type { EmailSender } from '../notifications/email';
export {
  completeTwoFactorSignIn,
  disableTwoFactor,
  enableTwoFactor,
  mailNewDeviceSignIn,
  startTwoFactorSetup,
  twoFactorStatus,
  type TwoFactorDeps,
} from './two-factor';
export { twoFactorKeys, type TwoFactorKeys } from './two-factor-keys';
