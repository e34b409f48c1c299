/** Facts of tips: a member tips a creator. Stream `tip-<tipId>`. A released event's shape never changes. */

export type TipSource = 'card' | 'balance';

interface TipTerms {
  tipId: string;
  tipperId: string;
  creatorId: string;
  /** Integer cents, $1 to $500. */
  amountCents: number;
  /** The post it was given on; null for a tip on the creator page or in a message thread. */
  postId: string | null;
  message: string | null;
  source: TipSource;
}

/** The member asked to tip: written before any money moves, so a paid tip can always be completed. */
export interface TipRequested {
  type: 'TipRequested';
  data: TipTerms & { requestedAt: string };
}

/** The tip was paid (card charge or balance spend) and belongs to the creator: a creator sale. */
export interface TipGiven {
  type: 'TipGiven';
  data: TipTerms & {
    /** The card charge; null when paid from the balance. */
    transactionId: string | null;
    /** The balance movement's reference (`tip:<tipId>`); null when paid by card. */
    paymentReference: string | null;
    givenAt: string;
  };
}

export type TipEvent = TipRequested | TipGiven;

export const tipStream = (tipId: string) => `tip-${tipId}`;
