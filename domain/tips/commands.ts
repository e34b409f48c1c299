/**
 * The tips context's way in: a member tips a creator (`tip.ts`). api/ imports this file and
 * events.ts only.
 */
export { tipCreator, type TipInput } from './tip';
export type { PaymentGateway } from '../payments/gateway';
