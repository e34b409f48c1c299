/**
 * The script every HTML page runs first, inline in its head (web/vite.config.ts puts it there):
 * it applies the saved theme (localStorage 'theme', else the system preference) before the first
 * paint, so a dark page does not flash light; MUI takes over once React starts. Inline, not a file:
 * a file there blocks the first paint for a round trip. The API's Content-Security-Policy allows
 * exactly this text by its hash (api/app.ts).
 */
export const THEME_SCRIPT =
  "(function(){try{var s=localStorage.getItem('theme');" +
  "var d=s==='dark'||((s===null||s==='system')&&window.matchMedia('(prefers-color-scheme: dark)').matches);" +
  "var r=document.documentElement;r.classList.add(d?'dark':'light');r.style.colorScheme=d?'dark':'light';" +
  '}catch(e){}})();'; // storage blocked: the app decides once it starts
