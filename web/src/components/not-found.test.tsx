import '@/test-support/jsdom-setup';
import { render, screen } from '@testing-library/react';
import { NotFoundPage } from './not-found';

it('reads as SPEC §2 says', () => {
  render(<NotFoundPage />);
  expect(screen.getByRole('heading', { name: '404 Page Not Found' })).toBeTruthy();
  expect(screen.getByText('Did you forget to add the page to the router?')).toBeTruthy();
});
