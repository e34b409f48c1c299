/** The three tiers offered while a creator has defined none (SPEC §9); subscribing to them works. */
export interface TierDefinition {
  tierId: string;
  name: string;
  description: string;
  priceCents: number;
  features: string[];
  popular: boolean;
  isDefault: boolean;
}

export const FALLBACK_TIERS: TierDefinition[] = [
  {
    tierId: 'default-basic',
    name: 'Basic',
    description: 'Access to all subscriber posts',
    priceCents: 999,
    features: ['Access to subscriber-only posts', 'Direct messages'],
    popular: false,
    isDefault: true,
  },
  {
    tierId: 'default-premium',
    name: 'Premium',
    description: 'Most Popular',
    priceCents: 1999,
    features: ['Everything in Basic', 'Priority replies to messages', 'Exclusive behind-the-scenes posts'],
    popular: true,
    isDefault: true,
  },
  {
    tierId: 'default-vip',
    name: 'VIP',
    description: 'The full experience',
    priceCents: 3999,
    features: ['Everything in Premium', 'Personal thank-you message', 'Early access to new content'],
    popular: false,
    isDefault: true,
  },
];
