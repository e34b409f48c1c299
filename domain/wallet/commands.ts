/**
 * The wallet context's way in: moving money on a member's USD balance (one stream per member,
 * so it is never spent twice). Movements of a money flow are built with `balanceMovement`
 * (`domain/shared/money-flows.ts`).
 */
export { creditBalance, currentBalanceCents, spendBalance, type MovementResult } from './balance';
