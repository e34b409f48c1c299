import { useCallback, useEffect, useRef, useState } from 'react';
import { useDispatch } from 'react-redux';
import { Upload, type DetailedError } from 'tus-js-client';
import type { MediaItem, MediaKind, MediaUploadResult } from '@contracts/media';
import type { ApiDispatch } from '@/lib/api';
import { errorMessage, serverErrorText } from '@/lib/api';
import { clientId } from '@/lib/client-id';
import { mediaApi, vaultChanged } from '@/lib/media-api';

/**
 * Uploading photos and videos (issue 18): each file goes up (multipart for photos, resumable tus
 * for videos and anything large), then the server processes it while the uploader polls
 * GET /api/media/:id for its progress until it is ready or failed.
 */

export const TUS_ENDPOINT = '/api/media/uploads';
/** Above this a file goes through tus even when it is a photo: a dropped connection then costs nothing. */
const RESUMABLE_FROM_BYTES = 20 * 1024 * 1024;

export type UploadPhase = 'uploading' | 'processing' | 'ready' | 'failed';

export interface UploadEntry {
  /** Local key (stable across reordering). */
  key: string;
  name: string;
  kind: MediaKind;
  phase: UploadPhase;
  /** 0..100: bytes sent while uploading, the server's progress while processing. */
  percent: number;
  mediaId?: string;
  /** A local preview of a photo (object URL) or the server's thumbnail. */
  thumbnailUrl?: string;
  error?: string;
  /** Picked in the vault rather than uploaded here (its name is not known). */
  fromVault?: boolean;
}

/** How a file reaches the server; tests replace it (jsdom has no real uploads). */
export interface UploadTransport {
  upload(file: File, onProgress: (percent: number) => void, signal: AbortSignal): Promise<MediaUploadResult>;
}

/** The message the uploader shows for a refused file: the server's own words when it sent them. */
export function refusalMessage(status: number, body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: unknown };
    if (typeof parsed.error === 'string' && parsed.error) return parsed.error;
  } catch {
    // not JSON: fall through to the status
  }
  if (status === 415) return 'Unsupported file type';
  if (status === 413) return 'File too large';
  if (status === 0) return 'Upload failed: check your connection and try again';
  return `Upload failed (${status})`;
}

class UploadRefused extends Error {}

function multipartUpload(file: File, onProgress: (percent: number) => void, signal: AbortSignal) {
  return new Promise<MediaUploadResult>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/media');
    xhr.withCredentials = true;
    xhr.setRequestHeader('X-Client-Id', clientId());
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (event) => event.lengthComputable && onProgress((event.loaded / event.total) * 100);
    xhr.onload = () =>
      xhr.status === 201
        ? resolve(JSON.parse(xhr.responseText) as MediaUploadResult)
        : reject(new UploadRefused(refusalMessage(xhr.status, xhr.responseText)));
    xhr.onerror = () => reject(new UploadRefused(refusalMessage(0, '')));
    signal.addEventListener('abort', () => xhr.abort());
    const form = new FormData();
    form.append('file', file);
    xhr.send(form);
  });
}

/**
 * tus: the fingerprint is kept in localStorage, so the same file picked again after a reload
 * resumes where the server stopped. The last PATCH answers with the media item's headers.
 */
function resumableUpload(file: File, onProgress: (percent: number) => void, signal: AbortSignal) {
  return new Promise<MediaUploadResult>((resolve, reject) => {
    let result: MediaUploadResult | null = null;
    const upload = new Upload(file, {
      endpoint: TUS_ENDPOINT,
      retryDelays: [0, 1000, 3000, 5000, 10000, 20000],
      chunkSize: 16 * 1024 * 1024,
      metadata: { filename: file.name, filetype: file.type },
      headers: { 'X-Client-Id': clientId() },
      storeFingerprintForResuming: true,
      removeFingerprintOnSuccess: true,
      onProgress: (sent, total) => onProgress(total ? (sent / total) * 100 : 0),
      onAfterResponse: (_request, response) => {
        const id = response.getHeader('Media-Id');
        if (id)
          result = {
            id,
            kind: response.getHeader('Media-Kind') as MediaKind,
            status: response.getHeader('Media-Status') as MediaUploadResult['status'],
          };
      },
      onSuccess: () =>
        result
          ? resolve(result)
          : // Finished before a reload, so this session never saw the answer: the item is in the vault.
            reject(new UploadRefused('Already uploaded: find it in your vault')),
      onError: (error) => {
        const response = (error as DetailedError).originalResponse;
        reject(new UploadRefused(response ? refusalMessage(response.getStatus(), response.getBody()) : error.message));
      },
    });
    signal.addEventListener('abort', () => void upload.abort(true));
    void upload.findPreviousUploads().then((previous) => {
      if (previous[0]) upload.resumeFromPreviousUpload(previous[0]);
      upload.start();
    });
  });
}

export const uploadTransport: UploadTransport = {
  upload(file, onProgress, signal) {
    const resumable = file.type.startsWith('video/') || file.size > RESUMABLE_FROM_BYTES;
    return (resumable ? resumableUpload : multipartUpload)(file, onProgress, signal);
  },
};

/** A local photo preview holds the file in memory until its URL is revoked. */
function forgetPreview(entry: UploadEntry | undefined) {
  if (entry?.thumbnailUrl?.startsWith('blob:')) URL.revokeObjectURL(entry.thumbnailUrl);
}

const kindOf = (file: File): MediaKind => (file.type.startsWith('video/') ? 'video' : 'image');
let nextKey = 0;
const newKey = () => `upload-${++nextKey}`;

export interface MediaUploadOptions {
  /** How often processing progress is asked for (ms). */
  pollMs?: number;
}

/** The uploader's state and actions: add files, reorder, remove, attach items already in the vault. */
export function useMediaUpload({ pollMs = 1000 }: MediaUploadOptions = {}) {
  const dispatch = useDispatch<ApiDispatch>();
  const [entries, setEntries] = useState<UploadEntry[]>([]);
  const aborts = useRef(new Map<string, AbortController>());

  useEffect(() => {
    const running = aborts.current;
    return () => running.forEach((controller) => controller.abort());
  }, []);

  const update = useCallback(
    (key: string, change: Partial<UploadEntry>) =>
      setEntries((current) => current.map((entry) => (entry.key === key ? { ...entry, ...change } : entry))),
    [],
  );

  /** Polls the item until the server is done with it. */
  const follow = useCallback(
    async (key: string, mediaId: string, signal: AbortSignal) => {
      while (!signal.aborted) {
        let item: MediaItem;
        try {
          item = await dispatch(
            mediaApi.endpoints.mediaItem.initiate(mediaId, { forceRefetch: true, subscribe: false }),
          ).unwrap();
        } catch (error) {
          update(key, { phase: 'failed', error: serverErrorText(error) ?? errorMessage(error) });
          return;
        }
        if (signal.aborted) return;
        if (item.status !== 'processing') dispatch(vaultChanged()); // its chip in the vault changes
        if (item.status === 'ready') {
          update(key, {
            phase: 'ready',
            percent: 100,
            kind: item.kind,
            ...(item.thumbnailUrl ? { thumbnailUrl: item.thumbnailUrl } : {}),
          });
          return;
        }
        if (item.status === 'failed') {
          update(key, { phase: 'failed', error: item.failureReason ?? 'Processing failed' });
          return;
        }
        update(key, { phase: 'processing', percent: item.progress ?? 0, kind: item.kind });
        await new Promise((wake) => setTimeout(wake, pollMs));
      }
    },
    [dispatch, pollMs, update],
  );

  const start = useCallback(
    async (key: string, file: File) => {
      const controller = new AbortController();
      aborts.current.set(key, controller);
      try {
        const result = await uploadTransport.upload(
          file,
          (percent) => update(key, { percent: Math.round(percent) }),
          controller.signal,
        );
        if (controller.signal.aborted) return;
        dispatch(vaultChanged());
        update(key, { mediaId: result.id, kind: result.kind, phase: 'processing', percent: 0 });
        await follow(key, result.id, controller.signal);
      } catch (error) {
        if (!controller.signal.aborted) update(key, { phase: 'failed', error: errorMessage(error) });
      } finally {
        aborts.current.delete(key);
      }
    },
    [dispatch, follow, update],
  );

  const addFiles = useCallback(
    (files: Iterable<File>) => {
      const added = [...files].map((file) => ({ file, key: newKey() }));
      setEntries((current) => [
        ...current,
        ...added.map(({ file, key }) => ({
          key,
          name: file.name,
          kind: kindOf(file),
          phase: 'uploading' as const,
          percent: 0,
          ...(kindOf(file) === 'image' && typeof URL.createObjectURL === 'function'
            ? { thumbnailUrl: URL.createObjectURL(file) }
            : {}),
        })),
      ]);
      for (const { file, key } of added) void start(key, file);
    },
    [start],
  );

  /** An item already uploaded (picked in the vault): it is checked like a fresh one. */
  const addExisting = useCallback(
    (mediaId: string) => {
      const key = newKey();
      const controller = new AbortController();
      aborts.current.set(key, controller);
      setEntries((current) => [
        ...current,
        { key, name: 'From your vault', kind: 'image', phase: 'processing', percent: 0, mediaId, fromVault: true },
      ]);
      void follow(key, mediaId, controller.signal).finally(() => aborts.current.delete(key));
      return key;
    },
    [follow],
  );

  const remove = useCallback((key: string) => {
    aborts.current.get(key)?.abort();
    setEntries((current) => {
      forgetPreview(current.find((entry) => entry.key === key));
      return current.filter((entry) => entry.key !== key);
    });
  }, []);

  const move = useCallback((key: string, by: -1 | 1) => {
    setEntries((current) => {
      const from = current.findIndex((entry) => entry.key === key);
      const to = from + by;
      if (from < 0 || to < 0 || to >= current.length) return current;
      const next = [...current];
      [next[from], next[to]] = [next[to]!, next[from]!];
      return next;
    });
  }, []);

  const clear = useCallback(() => {
    aborts.current.forEach((controller) => controller.abort());
    setEntries((current) => {
      current.forEach(forgetPreview);
      return [];
    });
  }, []);

  return {
    entries,
    addFiles,
    addExisting,
    remove,
    move,
    clear,
    /** Every file is processed and none failed: what a post or message may be sent with. */
    allReady: entries.every((entry) => entry.phase === 'ready'),
    mediaIds: entries.flatMap((entry) => (entry.phase === 'ready' && entry.mediaId ? [entry.mediaId] : [])),
  };
}

export type MediaUploadState = ReturnType<typeof useMediaUpload>;
