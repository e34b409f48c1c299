import type { ChatPreferences, ChatProfile, PreferencesRequest, ProfileRequest } from '@contracts/chat';
import type { ChatImageOrder, ProfileImageResult } from '@contracts/profile-media';
import { api } from '@/lib/api';

/** SPEC §7: POST /api/profile and /api/preferences (and reading them back). */
export const profileApi = api.enhanceEndpoints({ addTagTypes: ['ChatProfile', 'ChatPreferences'] }).injectEndpoints({
  endpoints: (build) => ({
    chatProfile: build.query<ChatProfile | null, void>({
      async queryFn(_arg, _api, _extra, baseQuery) {
        const result = await baseQuery({ url: '/api/profile' });
        if (result.error) return result.error.status === 404 ? { data: null } : { error: result.error };
        return { data: result.data as ChatProfile };
      },
      providesTags: ['ChatProfile'],
    }),
    chatPreferences: build.query<ChatPreferences, void>({
      query: () => '/api/preferences',
      providesTags: ['ChatPreferences'],
    }),
    saveProfile: build.mutation<{ message: string; profile: ChatProfile }, ProfileRequest>({
      query: (body) => ({ url: '/api/profile', method: 'POST', body }),
      invalidatesTags: ['ChatProfile'],
    }),
    /** Issue 18: the chat profile's images (up to six), made from one's own uploaded photos. */
    addChatImage: build.mutation<ProfileImageResult, { mediaId: string }>({
      query: (body) => ({ url: '/api/profile/images', method: 'POST', body }),
      invalidatesTags: ['ChatProfile'],
    }),
    removeChatImage: build.mutation<null, string>({
      query: (mediaId) => ({ url: `/api/profile/images/${encodeURIComponent(mediaId)}`, method: 'DELETE' }),
      invalidatesTags: ['ChatProfile'],
    }),
    reorderChatImages: build.mutation<null, ChatImageOrder>({
      query: (body) => ({ url: '/api/profile/images/order', method: 'PUT', body }),
      invalidatesTags: ['ChatProfile'],
    }),
    savePreferences: build.mutation<{ message: string; preferences: ChatPreferences }, PreferencesRequest>({
      query: (body) => ({ url: '/api/preferences', method: 'POST', body }),
      invalidatesTags: ['ChatPreferences', 'CurrentUser'],
    }),
  }),
});

export const {
  useChatProfileQuery,
  useChatPreferencesQuery,
  useSaveProfileMutation,
  useSavePreferencesMutation,
  useAddChatImageMutation,
  useRemoveChatImageMutation,
  useReorderChatImagesMutation,
} = profileApi;
