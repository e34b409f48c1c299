import { MAX_TIP_CENTS, MIN_TIP_CENTS, TIP_RANGE_TEXT } from '../contracts/tips';
import type { Decider } from '../shared/command-handler';
import { refuse } from '../shared/errors';
import type { TipEvent, TipRequested } from './events';

const MAX_TIP_MESSAGE = 500;

type Terms = Omit<TipRequested['data'], 'requestedAt'>;

export interface TipState {
  terms: Terms | null;
  given: boolean;
}

export type TipCommand =
  | ({ type: 'RequestTip'; at: Date } & Terms)
  | { type: 'GiveTip'; transactionId: string | null; paymentReference: string | null; at: Date };

const sameTerms = (a: Terms, b: Terms) => (Object.keys(a) as (keyof Terms)[]).every((key) => a[key] === b[key]);

/** One tip: requested once with its terms, then given once its money moved. */
export const tipDecider: Decider<TipCommand, TipState, TipEvent> = {
  initialState: { terms: null, given: false },
  evolve(state, event) {
    if (event.type === 'TipRequested') {
      const { requestedAt: _requestedAt, ...terms } = event.data;
      return { ...state, terms };
    }
    return { ...state, given: true };
  },
  decide(command, state) {
    if (command.type === 'RequestTip') {
      const { type: _type, at, ...input } = command;
      const terms = checkedTerms(input);
      if (state.terms) {
        // A retry of the same request (same key) goes on; other terms under one key do not.
        if (sameTerms(state.terms, terms)) return [];
        throw refuse.conflict('This tip was already requested with other terms');
      }
      return [{ type: 'TipRequested', data: { ...terms, requestedAt: at.toISOString() } }];
    }
    if (!state.terms) throw refuse.notFound('Tip not found');
    if (state.given) return [];
    return [
      {
        type: 'TipGiven',
        data: {
          ...state.terms,
          transactionId: command.transactionId,
          paymentReference: command.paymentReference,
          givenAt: command.at.toISOString(),
        },
      },
    ];
  },
};

function checkedTerms(terms: Terms): Terms {
  if (terms.tipperId === terms.creatorId) throw refuse.unprocessable('You cannot tip yourself');
  if (!Number.isInteger(terms.amountCents) || terms.amountCents < MIN_TIP_CENTS || terms.amountCents > MAX_TIP_CENTS)
    throw refuse.validation(TIP_RANGE_TEXT, { amountCents: TIP_RANGE_TEXT });
  const message = terms.message?.trim() || null;
  if (message && message.length > MAX_TIP_MESSAGE)
    throw refuse.validation('Tip message too long', { message: `At most ${MAX_TIP_MESSAGE} characters` });
  return { ...terms, message };
}
