import type { CryptoType } from '../contracts/crypto';
import type { Decider } from '../shared/command-handler';
import { refuse } from '../shared/errors';
import type { CryptoWalletRegistered } from './events';

export interface RegisterCryptoWallet {
  type: 'RegisterCryptoWallet';
  walletId: string;
  userId: string;
  cryptoType: CryptoType;
  walletAddress: string;
  now: Date;
}

export interface CryptoWalletsState {
  /** Registered addresses, lowercased (hex addresses are case-insensitive). */
  addresses: Set<string>;
  walletIds: Set<string>;
}

export const ADDRESS_ALREADY_REGISTERED = 'This wallet address is already registered';

/** A member's deposit wallets: one stream per member, so an address is registered once. */
export const cryptoWalletsDecider: Decider<RegisterCryptoWallet, CryptoWalletsState, CryptoWalletRegistered> = {
  initialState: { addresses: new Set(), walletIds: new Set() },
  evolve(state, event) {
    return {
      addresses: new Set(state.addresses).add(event.data.walletAddress.toLowerCase()),
      walletIds: new Set(state.walletIds).add(event.data.walletId),
    };
  },
  decide(command, state) {
    if (state.walletIds.has(command.walletId)) return [];
    const address = command.walletAddress.trim();
    if (state.addresses.has(address.toLowerCase())) throw refuse.conflict(ADDRESS_ALREADY_REGISTERED);
    return [
      {
        type: 'CryptoWalletRegistered',
        data: {
          walletId: command.walletId,
          userId: command.userId,
          cryptoType: command.cryptoType,
          walletAddress: address,
          registeredAt: command.now.toISOString(),
        },
      },
    ];
  },
};
