/**
 * The markup of a page rendered on the server (at build time: web/prerender.ts; for a member:
 * ./member-page.tsx), made ready to be sent: its styles taken out for the head, its controls
 * inert until the browser's React adopts them (web/src/main.tsx).
 */

/**
 * Emotion's style tags, taken out of the markup into one tag for the head. The client's emotion
 * cache adopts them before hydrating (it skips the rules whose ids the tags list), so the markup
 * matches what React renders. `data-s` says they are in the head already: without it emotion
 * first moves each to the head's end, and the browser applies a moved sheet to the page anew
 * (30 ms of a phone's boot at 4x throttling for a creator page).
 */
export function hoistStyles(rendered: string): { markup: string; style: string } {
  const globals = new Map<string, string>();
  const rules = new Map<string, string>();
  const markup = rendered.replace(
    /<style data-emotion="([^"]+)"[^>]*>([\s\S]*?)<\/style>/g,
    (tag, key: string, css: string) => {
      const [cacheKey, ...ids] = key.split(' ');
      if (cacheKey === 'css') rules.set(ids.join(' '), css);
      // `css-global <name>`: a global style, adopted tag by tag
      else globals.set(key, tag.replace('<style ', '<style data-s="" '));
      return '';
    },
  );
  const style = `<style data-s="" data-emotion="css ${[...rules.keys()].join(' ')}">${[...rules.values()].join('')}</style>`;
  return { markup, style: [...globals.values()].join('') + style };
}

/**
 * The app's pre-rendered controls are disabled until React has adopted them (web/src/main.tsx
 * enables each then): typed text would be lost to the form's state, and a click would submit
 * the bare HTML form (its fields in the address).
 */
export const inertControls = (markup: string) =>
  markup.replace(/<(input|button|textarea|select)\b(?![^>]*\bdisabled\b)/g, '<$1 disabled data-until-hydrated');
