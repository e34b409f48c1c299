import '@/test-support/jsdom-setup';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import type { ShowcaseCreator } from '@contracts/showcase';
import { renderWithApp } from '@/test-support/render';
import { CreatorShowcase } from './creator-showcase';
import { LandingPage } from './landing-page';
import { fillShowcase, loadShowcase } from './showcase-fill';

afterEach(() => {
  cleanup();
  document.body.replaceChildren(); // the detached pre-rendered copies
});

const creator = (id: string, name: string, withAvatar = true): ShowcaseCreator => ({
  id,
  name,
  cover: {
    src: `/api/media/${id}-cover/public/w640.webp`,
    srcSet: `/api/media/${id}-cover/public/w320.webp 320w, /api/media/${id}-cover/public/w640.webp 640w`,
    width: 1200,
    height: 400,
  },
  avatar: withAvatar ? { src: `/api/media/${id}-avatar/public/w320.webp`, srcSet: '', width: 512, height: 512 } : null,
});

/** The section as the pre-rendered page has it (markup React does not manage): empty cards of their final size. */
function prerenderedSection(): HTMLElement {
  const { container, unmount } = render(<CreatorShowcase creators={null} />);
  const page = document.createElement('div');
  page.innerHTML = container.innerHTML;
  unmount();
  document.body.append(page);
  return page.querySelector<HTMLElement>('[data-showcase]')!;
}

const answer = (body: unknown, ok = true) => {
  globalThis.fetch = (async () => ({ ok, json: async () => body })) as unknown as typeof fetch;
};

describe('creator showcase on the landing page', () => {
  it('pre-renders empty cards that keep their size, then fills them with creators without React', () => {
    const section = prerenderedSection();
    const covers = section.querySelectorAll<HTMLImageElement>('[data-showcase-cover]');
    expect(covers).toHaveLength(4);
    // Width and height are set and hidden images have no source yet: nothing loads or moves.
    for (const img of covers) {
      expect(img.hidden).toBe(true);
      expect(img.getAttribute('src')).toBeNull();
      expect(img.getAttribute('width')).toBeTruthy();
      expect(img.getAttribute('loading')).toBe('lazy');
    }

    fillShowcase(section, [creator('a', 'Ava Stone'), creator('b', 'Bo Lee', false)]);
    const cards = section.querySelectorAll('[data-showcase-card]');
    expect(cards).toHaveLength(2);
    const first = cards[0].querySelector<HTMLImageElement>('[data-showcase-cover]')!;
    expect(first.hidden).toBe(false);
    expect(first.getAttribute('src')).toBe('/api/media/a-cover/public/w640.webp');
    expect(first.getAttribute('srcset')).toContain('640w');
    expect(first.getAttribute('sizes')).toBe('(min-width: 900px) 280px, (min-width: 600px) 50vw, 100vw');
    expect([first.width, first.height]).toEqual([1200, 400]);
    expect(cards[0].querySelector<HTMLImageElement>('[data-showcase-avatar]')!.hidden).toBe(false);
    expect(cards[1].querySelector<HTMLImageElement>('[data-showcase-avatar]')!.hidden).toBe(true);
    expect([...section.querySelectorAll('[data-showcase-name]')].map((n) => n.textContent)).toEqual([
      'Ava Stone',
      'Bo Lee',
    ]);
  });

  it('leaves the section out when there is no creator to show or the request fails', async () => {
    const section = prerenderedSection();
    fillShowcase(section, []);
    expect(section.isConnected).toBe(false);

    prerenderedSection();
    answer({ error: 'down' }, false);
    await loadShowcase(document);
    expect(document.querySelector('[data-showcase]')).toBeNull();
  });

  it('shows the creators in the app, fetched by the page itself', async () => {
    answer({ creators: [creator('c', 'Cy Park')] });
    renderWithApp(<LandingPage />);
    await screen.findByText('Cy Park');
    await waitFor(() => expect(document.querySelectorAll('[data-showcase-card]')).toHaveLength(1));
    expect(screen.getByRole('heading', { name: 'Meet some of our creators' })).toBeTruthy();
  });
});
