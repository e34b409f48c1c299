/**
 * GET /api/showcase (issue 18): a few creators for the landing page, shown to anyone signed out.
 * Only what a creator made public: the name on their page and the current avatar and cover
 * (public media, served unsigned by /api/media/:id/public/:variant).
 */
export interface ShowcaseImage {
  /** The smallest WebP variant that fills the slot on a phone. */
  src: string;
  /** Every stored WebP width of the item, for `srcset` (`<url> <width>w, …`). */
  srcSet: string;
  /** The item's own pixels, so the page reserves its box before it loads. */
  width: number;
  height: number;
}

export interface ShowcaseCreator {
  id: string;
  name: string;
  avatar: ShowcaseImage | null;
  cover: ShowcaseImage;
}

export interface Showcase {
  creators: ShowcaseCreator[];
}

/** How many creators the landing page shows at most. */
export const SHOWCASE_SIZE = 4;
