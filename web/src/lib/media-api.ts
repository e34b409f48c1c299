import type { MediaItem, MediaKind, MediaVaultPage } from '@contracts/media';
import type { ProfileImageRequest, ProfileImageResult } from '@contracts/profile-media';
import { api } from '@/lib/api';

export interface VaultPageArgs {
  kind?: MediaKind;
  cursor?: string;
  limit?: number;
}

function vaultUrl({ kind, cursor, limit }: VaultPageArgs): string {
  const params = new URLSearchParams();
  if (kind) params.set('kind', kind);
  if (cursor) params.set('cursor', cursor);
  if (limit) params.set('limit', String(limit));
  const query = params.toString();
  return query ? `/api/media?${query}` : '/api/media';
}

/** Issue 18: one uploaded item (with processing progress), the owner's vault, deletion. */
export const mediaApi = api.enhanceEndpoints({ addTagTypes: ['MediaVault'] }).injectEndpoints({
  endpoints: (build) => ({
    mediaItem: build.query<MediaItem, string>({
      query: (id) => `/api/media/${encodeURIComponent(id)}`,
    }),
    mediaVault: build.query<MediaVaultPage, VaultPageArgs>({
      query: vaultUrl,
      providesTags: ['MediaVault'],
    }),
    deleteMedia: build.mutation<null, string>({
      query: (id) => ({ url: `/api/media/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['MediaVault'],
    }),
    /** Avatar (anyone) or cover (creators) from one's own ready image, cropped on the server. */
    setProfileImage: build.mutation<ProfileImageResult, ProfileImageRequest & { slot: ProfileImageSlot }>({
      query: ({ slot, ...body }) => ({
        url: slot === 'avatar' ? '/api/me/avatar' : '/api/creators/me/cover',
        method: 'PUT',
        body,
      }),
      invalidatesTags: ['CurrentUser', 'MediaVault'],
    }),
  }),
});

export type ProfileImageSlot = 'avatar' | 'cover';

export const { useMediaItemQuery, useMediaVaultQuery, useDeleteMediaMutation, useSetProfileImageMutation } = mediaApi;

/** The vault changed (a new upload): lists shown elsewhere load again. */
export const vaultChanged = () => mediaApi.util.invalidateTags(['MediaVault']);
