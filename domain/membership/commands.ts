/**
 * The membership context's way in: the member's own membership actions (subscribe by card,
 * the 6-month plan from the balance, cancel, age verification) and the port they take.
 * api/ and realtime/ import this file and events.ts only.
 */
export { cancelMembership, subscribeWithBalance, subscribeWithCard, verifyAge, type ActionResult } from './purchase';
export type { PaymentGateway } from '../payments/gateway';
