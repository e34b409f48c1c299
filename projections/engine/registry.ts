import { blocksProjector } from '../blocks';
import { reportsProjector } from '../reports';
import { chatSessionsProjector } from '../chat-sessions';
import { paymentsProjector } from '../payments';
import type { Projector } from './projector';
import { creatorsProjector } from '../creators';
import { creatorSubscriptionsProjector } from '../creator-subscriptions';
import { postsProjector } from '../posts';
import { messagesProjector } from '../messages';
import { walletBalancesProjector } from '../wallet-balances';
import { cryptoConversionsProjector } from '../crypto-conversions';
import { cryptoTransactionsProjector } from '../crypto-transactions';
import { cryptoWalletsProjector } from '../crypto-wallets';
import { userPreferencesProjector } from '../user-preferences';
import { userProfilesProjector } from '../user-profiles';
import { usersProjector } from '../users';
import { payoutsProjector } from '../payouts';
import { paymentAccountsProjector } from '../payment-accounts';
import { creatorBalancesProjector } from '../creator-balances';
import { ledgerProjector } from '../ledger';
import { mediaProjector } from '../media';
import { profileMediaProjector } from '../profile-media';
import { verificationsProjector } from '../verifications';
import { billingHistoryProjector } from '../billing-history';
import { notificationsProjector } from '../notifications';
import { creatorAnalyticsProjector } from '../creator-analytics';
import { massMessagesProjector } from '../mass-messages';
import { promotionsProjector } from '../promotions';

/** Every read model of the product. Add a projector here and the runner builds and keeps it. */
export const allProjectors: Projector[] = [
  usersProjector,
  paymentsProjector,
  userProfilesProjector,
  userPreferencesProjector,
  chatSessionsProjector,
  blocksProjector,
  reportsProjector,
  walletBalancesProjector,
  creatorsProjector,
  creatorSubscriptionsProjector,
  postsProjector,
  messagesProjector,
  payoutsProjector,
  paymentAccountsProjector,
  creatorBalancesProjector,
  cryptoWalletsProjector,
  cryptoTransactionsProjector,
  cryptoConversionsProjector,
  ledgerProjector,
  billingHistoryProjector,
  notificationsProjector,
  creatorAnalyticsProjector,
  massMessagesProjector,
  mediaProjector,
  profileMediaProjector,
  verificationsProjector,
  promotionsProjector,
];
