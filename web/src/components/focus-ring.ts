/**
 * A ring for a button that is a picture (a photo tile, a video's poster) when reached by
 * keyboard: MUI's ButtonBase draws no outline and, without a ripple, shows no focus at all.
 */
export const focusRing = {
  '&.Mui-focusVisible': { outline: '3px solid', outlineColor: 'primary.main', outlineOffset: '-3px' },
};
