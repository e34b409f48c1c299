import type { PromotionOffer } from '@contracts/promotions';
import { api } from './api';
import { usd } from './format';

/** The offer behind a promotion's share link (any member), and its tag the dashboard's changes refresh. */
const promotionsBase = api.enhanceEndpoints({ addTagTypes: ['Promotions'] });

export const promotionsApi = promotionsBase.injectEndpoints({
  endpoints: (build) => ({
    promotionOffer: build.query<PromotionOffer, string>({
      query: (id) => `/api/promotions/${encodeURIComponent(id)}`,
      providesTags: ['Promotions'],
    }),
  }),
});

export const { usePromotionOfferQuery } = promotionsApi;

/**
 * The offer in one line: "7-day free trial, then $9.99/month" or "First month $4.99, then
 * $9.99/month". `price` is the tier's monthly price that every renewal charges.
 */
export function offerText(promotion: PromotionOffer): string {
  const then = `then ${usd(promotion.price)}/month`;
  return promotion.kind === 'trial'
    ? `${promotion.trialDays}-day free trial, ${then}`
    : `First month ${usd(promotion.firstPeriodPrice)}, ${then}`;
}
