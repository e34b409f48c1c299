import '@/test-support/jsdom-setup';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { PartnerPhotos } from './partner-photos';

afterEach(cleanup);

const photos = ['/api/media/p1/public/w640.webp', '/api/media/p2/public/w640.webp'];

describe('PartnerPhotos', () => {
  it("shows the partner's photos in order, and one large when tapped until closed", async () => {
    render(<PartnerPhotos name="Una" photos={photos} />);
    const section = screen.getByRole('region', { name: "Una's photos" });
    const buttons = within(section).getAllByRole('button');
    expect(buttons.map((button) => button.getAttribute('aria-label'))).toEqual([
      "Show Una's photo 1 of 2",
      "Show Una's photo 2 of 2",
    ]);
    expect(buttons.map((button) => button.querySelector('img')!.getAttribute('src'))).toEqual(photos);

    fireEvent.click(buttons[1]!);
    const dialog = screen.getByRole('dialog', { name: "Una's photo 2 of 2" });
    expect(within(dialog).getByRole('img').getAttribute('src')).toBe(photos[1]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('shows nothing when the partner has no photos', () => {
    const { container } = render(<PartnerPhotos name="Vic" photos={[]} />);
    expect(container.innerHTML).toBe('');
  });
});
