import type { MediaItem, MediaKind, MediaVaultPage } from '@contracts/media';
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
  }),
});

export const { useMediaVaultQuery, useDeleteMediaMutation } = mediaApi;

/** The vault changed (a new upload): lists shown elsewhere load again. */
export const vaultChanged = () => mediaApi.util.invalidateTags(['MediaVault']);
