import '@/test-support/jsdom-setup';
import { act, cleanup, render, screen } from '@testing-library/react';
import { getToasts, removeToast, toast, TOAST_DURATION_MS } from './toast';
import { Toaster } from './toaster';

jest.setTimeout(30_000);
afterEach(() => {
  cleanup();
  act(() => removeToast());
  jest.useRealTimers();
});

it('shows one toast at a time: a new one replaces the old', () => {
  render(<Toaster />);
  act(() => {
    toast({ title: 'First' });
    toast({ title: 'Second', description: 'details', variant: 'destructive' });
  });
  expect(getToasts()).toHaveLength(1);
  expect(screen.queryByText('First')).toBeNull();
  expect(screen.getByText('Second')).toBeTruthy();
  expect(screen.getByText('details')).toBeTruthy();
});

it('closes after 5 s', () => {
  jest.useFakeTimers();
  render(<Toaster />);
  act(() => {
    toast({ title: 'Saved' });
  });
  expect(getToasts()[0]!.open).toBe(true);
  act(() => {
    jest.advanceTimersByTime(TOAST_DURATION_MS + 10);
  });
  expect(getToasts()[0]?.open).toBe(false);
});

it('can be updated and dismissed by its handle', () => {
  render(<Toaster />);
  let handle: ReturnType<typeof toast>;
  act(() => {
    handle = toast({ title: 'Working' });
    handle.update({ title: 'Done' });
  });
  expect(screen.getByText('Done')).toBeTruthy();
  act(() => handle.dismiss());
  expect(getToasts()[0]!.open).toBe(false);
});
