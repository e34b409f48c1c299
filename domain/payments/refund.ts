import type { EventStore } from '../event-store/port';
import { handleCommand, type CommandContext, type Decider } from '../shared/command-handler';
import { paymentDecider, type PaymentState, type RecordCharge, type RecordRefund } from './decider';
import { paymentStream, type PaymentEvent } from './events';

/**
 * A charge that was given back before it paid for anything (a sign-up that did not complete):
 * both facts are recorded so finance sees the money that moved at the processor. When the
 * charge was not recorded yet, both events go in one append, so no process manager ever sees
 * the charge standing on its own (it would act on it).
 */
interface RecordChargeAndRefund {
  charge: RecordCharge;
  refund: RecordRefund;
}

const chargeThenRefund: Decider<RecordChargeAndRefund, PaymentState, PaymentEvent> = {
  initialState: paymentDecider.initialState,
  evolve: paymentDecider.evolve,
  decide(command, state) {
    const charged = paymentDecider.decide(command.charge, state);
    return [...charged, ...paymentDecider.decide(command.refund, charged.reduce(paymentDecider.evolve, state))];
  },
};

export function recordRefundedCharge(
  store: EventStore,
  charge: RecordCharge,
  refund: RecordRefund,
  context: CommandContext,
) {
  return handleCommand(store, paymentStream(charge.paymentId), chargeThenRefund, { charge, refund }, context);
}
