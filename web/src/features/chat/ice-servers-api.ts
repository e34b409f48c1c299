import type { IceServers } from '@contracts/ice-servers';
import { api } from '@/lib/api';

/** STUN and TURN (with credentials of at most an hour) for the chat's peer connections. */
export const iceServersApi = api.injectEndpoints({
  endpoints: (build) => ({
    iceServers: build.query<IceServers, void>({ query: () => '/api/chat/ice-servers', keepUnusedDataFor: 0 }),
  }),
});

export const { useLazyIceServersQuery } = iceServersApi;
