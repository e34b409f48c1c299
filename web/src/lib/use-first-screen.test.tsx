import '@/test-support/jsdom-setup';
import { act, cleanup, render, screen } from '@testing-library/react';
import { useFirstScreen } from './use-first-screen';

afterEach(() => {
  cleanup();
  delete (globalThis as { IntersectionObserver?: unknown }).IntersectionObserver;
});

function List({ items }: { items: number[] }) {
  const { shown, more } = useFirstScreen(items);
  return (
    <ul>
      {shown.map((item) => (
        <li key={item}>item {item}</li>
      ))}
      <div ref={more} />
    </ul>
  );
}

/** An IntersectionObserver the test scrolls: `reach()` says the sentinel came near the viewport. */
function fakeObserver() {
  const observers: Array<(entries: Array<{ isIntersecting: boolean }>) => void> = [];
  (globalThis as { IntersectionObserver?: unknown }).IntersectionObserver = class {
    constructor(callback: (entries: Array<{ isIntersecting: boolean }>) => void) {
      observers.push(callback);
    }
    observe() {}
    disconnect() {}
  };
  return { reach: () => observers.forEach((callback) => callback([{ isIntersecting: true }])) };
}

const items = Array.from({ length: 10 }, (_, i) => i + 1);

it('renders the first screen of a list, and the rest when the member scrolls towards it', async () => {
  const scroll = fakeObserver();
  render(<List items={items} />);
  expect(screen.getAllByRole('listitem')).toHaveLength(3);
  await act(async () => scroll.reach());
  expect(screen.getAllByRole('listitem')).toHaveLength(10);
});

it('renders the rest right after the first render where nothing can tell it is near', async () => {
  render(<List items={items} />);
  expect(await screen.findByText('item 10')).toBeTruthy();
});
