import '@/test-support/jsdom-setup';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { NO_MATCH_HINT_MS, NoMatchHint, useWaitedLong } from './no-match-hint';

function Probe({ active, restartKey }: { active: boolean; restartKey: number }) {
  return <output data-testid="waited">{String(useWaitedLong(active, restartKey))}</output>;
}
const waited = () => screen.getByTestId('waited').textContent;

afterEach(() => {
  cleanup();
  jest.useRealTimers();
});

it('says "waited long" only after 20 s of searching, and starts over on a new search', () => {
  jest.useFakeTimers();
  const { rerender } = render(<Probe active restartKey={1} />);
  act(() => jest.advanceTimersByTime(NO_MATCH_HINT_MS - 1));
  expect(waited()).toBe('false');
  act(() => jest.advanceTimersByTime(1));
  expect(waited()).toBe('true');
  rerender(<Probe active restartKey={2} />);
  expect(waited()).toBe('false');
  act(() => jest.advanceTimersByTime(NO_MATCH_HINT_MS));
  expect(waited()).toBe('true');
  rerender(<Probe active={false} restartKey={2} />);
  expect(waited()).toBe('false');
});

it('in Smart Matching explains why and offers wider filters or Random Chat', () => {
  const widen = jest.fn();
  const random = jest.fn();
  render(<NoMatchHint mode="standard" onWidenFilters={widen} onSwitchToRandom={random} />);
  expect(screen.getByText(/No one matching your filters is online right now/)).toBeTruthy();
  fireEvent.click(screen.getByRole('button', { name: 'Widen filters' }));
  fireEvent.click(screen.getByRole('button', { name: 'Switch to Random Chat' }));
  expect(widen).toHaveBeenCalledTimes(1);
  expect(random).toHaveBeenCalledTimes(1);
});

it('in Random Chat only says no one is free right now', () => {
  render(<NoMatchHint mode="random" onWidenFilters={jest.fn()} onSwitchToRandom={jest.fn()} />);
  expect(screen.getByText(/No one is free to chat right now/)).toBeTruthy();
  expect(screen.queryByRole('button')).toBeNull();
});
