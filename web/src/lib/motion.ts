/** Members who asked their system for less motion (vestibular disorders; WCAG 2.3.3). */
export const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';

/** Whether motion may be used: false when the member asked for less (the theme stills CSS motion). */
export const prefersMotion = (): boolean => !window.matchMedia?.(REDUCED_MOTION_QUERY).matches;
