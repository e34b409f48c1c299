import { useSyncExternalStore, type ReactNode } from 'react';

/**
 * Toasts (SPEC §4, §9): one visible at a time, default or destructive, 5 s, swipe right, F8.
 * This module is the store (light, on every page's first load); ./toaster draws them.
 */
export type ToastVariant = 'default' | 'destructive';

export interface ToastInput {
  title?: ReactNode;
  description?: ReactNode;
  variant?: ToastVariant;
  /** Milliseconds before it closes by itself. */
  duration?: number;
}

export interface ToastItem extends ToastInput {
  id: string;
  open: boolean;
}

export const TOAST_LIMIT = 1;
export const TOAST_DURATION_MS = 5000;
export const TOAST_REMOVE_DELAY_MS = 1_000_000;

// A module-level store so toasts can be raised outside React (e.g. the base query's 401 handling).
let toasts: ToastItem[] = [];
let counter = 0;
const listeners = new Set<() => void>();
const removalTimers = new Map<string, ReturnType<typeof setTimeout>>();

function emit(next: ToastItem[]): void {
  toasts = next;
  for (const listener of listeners) listener();
}

function scheduleRemoval(id: string): void {
  if (removalTimers.has(id)) return;
  removalTimers.set(
    id,
    setTimeout(() => {
      removalTimers.delete(id);
      removeToast(id);
    }, TOAST_REMOVE_DELAY_MS),
  );
}

export function dismissToast(id?: string): void {
  for (const t of toasts) if (id === undefined || t.id === id) scheduleRemoval(t.id);
  emit(toasts.map((t) => (id === undefined || t.id === id ? { ...t, open: false } : t)));
}

export function removeToast(id?: string): void {
  emit(id === undefined ? [] : toasts.filter((t) => t.id !== id));
}

export function updateToast(id: string, patch: ToastInput): void {
  emit(toasts.map((t) => (t.id === id ? { ...t, ...patch } : t)));
}

/** Shows a toast (replacing the one on screen) and returns handles to change or close it. */
export function toast(input: ToastInput): { id: string; dismiss: () => void; update: (patch: ToastInput) => void } {
  const id = String(++counter);
  const item: ToastItem = { variant: 'default', ...input, id, open: true };
  emit([item, ...toasts].slice(0, TOAST_LIMIT));
  return { id, dismiss: () => dismissToast(id), update: (patch) => updateToast(id, patch) };
}

/** A toast that can outlive a full page load: plain text only, so it can be stored. */
export interface ReloadToastInput {
  title: string;
  description?: string;
  variant?: ToastVariant;
}

export const TOAST_AFTER_RELOAD_KEY = 'lively.toastAfterReload';

/**
 * Keeps a toast for the next page load of this tab (e.g. login, which ends in a full load of /);
 * the Toaster shows it once when it mounts. Without sessionStorage it is shown now instead.
 */
export function toastAfterReload(input: ReloadToastInput): void {
  try {
    sessionStorage.setItem(TOAST_AFTER_RELOAD_KEY, JSON.stringify(input));
  } catch {
    toast(input);
  }
}

/** Whether a toast waits for this page load (kept by toastAfterReload). */
export function hasToastKeptForReload(): boolean {
  try {
    return sessionStorage.getItem(TOAST_AFTER_RELOAD_KEY) !== null;
  } catch {
    return false;
  }
}

/** Shows (once) the toast kept by toastAfterReload before the page was loaded. */
export function showToastKeptForReload(): void {
  let saved: string | null;
  try {
    saved = sessionStorage.getItem(TOAST_AFTER_RELOAD_KEY);
    sessionStorage.removeItem(TOAST_AFTER_RELOAD_KEY);
  } catch {
    return;
  }
  if (!saved) return;
  try {
    const input = JSON.parse(saved) as Partial<ReloadToastInput>;
    if (typeof input.title !== 'string') return;
    toast({
      title: input.title,
      ...(typeof input.description === 'string' ? { description: input.description } : {}),
      variant: input.variant === 'destructive' ? 'destructive' : 'default',
    });
  } catch {
    // A damaged entry is dropped.
  }
}

/** The toasts as they stand (for code outside React and tests). */
export function getToasts(): readonly ToastItem[] {
  return toasts;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useToast() {
  const current = useSyncExternalStore(
    subscribe,
    () => toasts,
    () => toasts,
  );
  return { toasts: current, toast, dismiss: dismissToast };
}
