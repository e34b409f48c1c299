/**
 * The payments context's way in. Card payments are taken by the context that sells something
 * (sign-up, membership, tiers), each recording the processor's answer on `payment-<id>`; what
 * they share is the port and the refund of a recorded charge.
 */
export { recordRefundedCharge } from './refund';
export type { CardOnFile, ChargeRequest, ChargeResult, PaymentGateway } from './gateway';
export { refundCharge, type ChargeLocator } from './refund-charge';
export { pollDisputes } from './dispute-poller';
