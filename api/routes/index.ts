import type { Router } from 'express';
import type { Api } from '../kit';
import { accountRoutes } from './account';
import { accountsRoutes } from './accounts';
import { chatRoutes } from './chat';
import { iceServerRoutes } from './ice-servers';
import { clientLogRoutes } from './client-logs';
import { cryptoRoutes } from './crypto';
import { healthRoutes } from './health';
import { membershipRoutes } from './membership';
import { payoutRoutes } from './payouts';
import { twoFactorRoutes } from './two-factor';
import { verificationRoutes } from './verification';
import { adminRoutes } from './admin';
import { refundRoutes } from './refunds';
import { moderationRoutes } from './moderation';
import { safetyRoutes } from './safety';
import { chatProfileRoutes } from './chat-profile';
import { creatorRoutes } from './creators';
import { postRoutes } from './posts';
import { creatorSubscriptionRoutes } from './creator-subscriptions';
import { messagingRoutes } from './messaging';
import { mediaRoutes } from './media';
import { profileMediaRoutes } from './profile-media';
import { notificationRoutes } from './notifications';
import { systemRoutes } from './system';
import { billingRoutes } from './billing';
import { creatorInsightsRoutes } from './creator-insights';
import { promotionRoutes } from './promotions';
import { showcaseRoutes } from './showcase';
import { tipRoutes } from './tips';
import { massMessageRoutes } from './mass-messages';

/** Every route module of the API, mounted under /api. Each bounded context adds its own. */
export const routeModules: Array<(api: Api) => Router> = [
  healthRoutes,
  clientLogRoutes,
  accountsRoutes,
  accountRoutes,
  twoFactorRoutes,
  verificationRoutes, // before creatorRoutes and adminRoutes: /creators/:id and /admin/:resource would take its paths
  membershipRoutes,
  chatProfileRoutes,
  chatRoutes,
  iceServerRoutes,
  cryptoRoutes,
  payoutRoutes,
  creatorRoutes,
  postRoutes,
  creatorSubscriptionRoutes,
  messagingRoutes,
  mediaRoutes,
  profileMediaRoutes,
  notificationRoutes,
  safetyRoutes,
  moderationRoutes, // before adminRoutes: its /admin/:resource would take /admin/reports
  refundRoutes,
  adminRoutes,
  systemRoutes,
  billingRoutes,
  creatorInsightsRoutes,
  promotionRoutes,
  showcaseRoutes,
  tipRoutes,
  massMessageRoutes,
];
