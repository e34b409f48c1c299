import type { CurrentUser } from '@contracts/accounts';
import { hasSiteAccess } from '@contracts/site-access';
import { api } from './api';

/** GET /api/auth/user: the signed-in user, or null when there is no session (no retry). */
export const currentUserApi = api.injectEndpoints({
  endpoints: (build) => ({
    currentUser: build.query<CurrentUser | null, void>({
      async queryFn(_arg, _api, _extra, baseQuery) {
        const result = await baseQuery({ url: '/api/auth/user' });
        if (result.error) return result.error.status === 401 ? { data: null } : { error: result.error };
        return { data: result.data as CurrentUser };
      },
      extraOptions: { on401: 'error' },
      providesTags: ['CurrentUser'],
    }),
  }),
});

/** The three states of SPEC §2 "Access by state" (loading counts as signed out). */
export type AccessState = 'loading' | 'visitor' | 'unsubscribed' | 'subscribed';

export function accessStateOf(user: CurrentUser | null | undefined, isLoading: boolean): AccessState {
  if (isLoading) return 'loading';
  if (!user) return 'visitor';
  // canceled / past due keep access until subscriptionEndDate (the paid period, or the grace period)
  return hasSiteAccess(user) ? 'subscribed' : 'unsubscribed';
}

/** The current user and the access state derived from it. */
export function useCurrentUser(): { user: CurrentUser | null; state: AccessState; isLoading: boolean } {
  const { data, isLoading, isError } = currentUserApi.useCurrentUserQuery();
  const user = data ?? null;
  // A failed lookup (server down) is treated as signed out rather than loading forever.
  const state = accessStateOf(user, isLoading && !isError);
  return { user, state, isLoading };
}
