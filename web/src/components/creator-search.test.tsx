import '@/test-support/jsdom-setup';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { useLocation } from 'react-router';
import type { Creator } from '@contracts/creators';
import { installFakeFetch, type FakeCall } from '@/test-support/fake-fetch';
import { renderWithApp } from '@/test-support/render';
import { CreatorSearch, SEARCH_DEBOUNCE_MS } from './creator-search';

const creator = (id: string, name: string, subscriberCount: number, postCount: number): Creator => ({
  id,
  name,
  firstName: name,
  lastName: null,
  bio: 'Bio',
  coverImageUrl: null,
  profileImageUrl: null,
  price: '12.99',
  postCount,
  subscriberCount,
  verified: false,
});

function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.pathname + location.search}</output>;
}

let calls: FakeCall[];
beforeEach(() => {
  calls = installFakeFetch(() => ({
    status: 200,
    body: [creator('c1', 'Ana Reyes', 3, 1), creator('c2', 'Hannah Lee', 1, 12)],
  }));
});
afterEach(cleanup);
jest.setTimeout(30_000);

function renderSearch(onDone = jest.fn()) {
  renderWithApp(
    <>
      <CreatorSearch onDone={onDone} />
      <Where />
    </>,
  );
  return { box: screen.getByRole('combobox', { name: 'Search creators' }), onDone };
}

const searches = () => calls.filter((call) => call.url.startsWith('/api/creators'));

it('asks for creators once typing pauses, and lists them with subscriber and post counts', async () => {
  const { box } = renderSearch();
  expect(box.getAttribute('placeholder')).toBe('Search creators...');
  for (const text of ['a', 'an', 'ana']) fireEvent.change(box, { target: { value: text } });
  expect(searches()).toHaveLength(0);
  await screen.findByText('Ana Reyes');
  expect(searches().map((call) => call.url)).toEqual(['/api/creators?q=ana&limit=8']);
  expect(screen.getByText('3 subscribers · 1 post')).toBeTruthy();
  expect(screen.getByText('1 subscriber · 12 posts')).toBeTruthy();
  expect(screen.getByRole('option', { name: 'See all results for "ana"' })).toBeTruthy();
});

it('waits the debounce before asking', async () => {
  const { box } = renderSearch();
  fireEvent.change(box, { target: { value: 'ana' } });
  await new Promise((resolve) => setTimeout(resolve, SEARCH_DEBOUNCE_MS / 2));
  expect(searches()).toHaveLength(0);
  await waitFor(() => expect(searches()).toHaveLength(1));
});

it('choosing a creator with the keyboard opens their page and says it is done', async () => {
  const { box, onDone } = renderSearch();
  fireEvent.change(box, { target: { value: 'an' } });
  await screen.findByText('Hannah Lee');
  fireEvent.keyDown(box, { key: 'ArrowDown' });
  fireEvent.keyDown(box, { key: 'ArrowDown' });
  fireEvent.keyDown(box, { key: 'Enter' });
  expect(screen.getByTestId('where').textContent).toBe('/creator/c2');
  expect(onDone).toHaveBeenCalledTimes(1);
  expect((box as HTMLInputElement).value).toBe('');
});

it('Enter without a chosen creator opens the search page', () => {
  const { box } = renderSearch();
  fireEvent.change(box, { target: { value: 'ana r' } });
  fireEvent.keyDown(box, { key: 'Enter' });
  expect(screen.getByTestId('where').textContent).toBe('/search?q=ana%20r');
});

it('"See all results" opens the search page', async () => {
  const { box } = renderSearch();
  fireEvent.change(box, { target: { value: 'ana' } });
  fireEvent.click(await screen.findByRole('option', { name: 'See all results for "ana"' }));
  expect(screen.getByTestId('where').textContent).toBe('/search?q=ana');
});

it('Escape with the list closed says it is done (the phone bar closes)', () => {
  const { box, onDone } = renderSearch();
  fireEvent.keyDown(box, { key: 'Escape' });
  expect(onDone).toHaveBeenCalledTimes(1);
});
