import type { Showcase, ShowcaseCreator } from '@contracts/showcase';

/**
 * The pre-rendered landing page's showcase, filled without React (web/src/landing-main.ts):
 * the page came with empty cards of their final size (CreatorShowcase without creators); each
 * gets a creator's images and name, the cards left over go, and with no creator the section does.
 */
export function fillShowcase(section: HTMLElement, creators: ShowcaseCreator[]): void {
  const cards = [...section.querySelectorAll<HTMLElement>('[data-showcase-card]')];
  if (!creators.length) return void section.remove();
  cards.forEach((card, index) => {
    const creator = creators[index];
    if (!creator) return void card.remove();
    const cover = card.querySelector<HTMLImageElement>('[data-showcase-cover]')!;
    cover.srcset = creator.cover.srcSet;
    cover.src = creator.cover.src;
    cover.width = creator.cover.width;
    cover.height = creator.cover.height;
    cover.hidden = false;
    const avatar = card.querySelector<HTMLImageElement>('[data-showcase-avatar]')!;
    if (creator.avatar) {
      avatar.src = creator.avatar.src;
      avatar.hidden = false;
    }
    card.querySelector('[data-showcase-name]')!.textContent = creator.name;
  });
}

/** Fetches the showcase and fills the page's section, if it has one; a failure leaves it out. */
export async function loadShowcase(doc: Document = document): Promise<void> {
  const section = doc.querySelector<HTMLElement>('[data-showcase]');
  if (!section) return;
  const creators = await fetch('/api/showcase')
    .then((res) => (res.ok ? (res.json() as Promise<Showcase>) : { creators: [] }))
    .then((body) => body.creators)
    .catch(() => []);
  fillShowcase(section, creators);
}
