// Applies the saved theme (localStorage 'theme', else the system preference) before the app
// loads, so a dark page does not flash light. MUI takes over once React starts.
(function () {
  try {
    var stored = localStorage.getItem('theme');
    var dark =
      stored === 'dark' ||
      ((stored === null || stored === 'system') && window.matchMedia('(prefers-color-scheme: dark)').matches);
    var root = document.documentElement;
    root.classList.add(dark ? 'dark' : 'light');
    root.style.colorScheme = dark ? 'dark' : 'light';
  } catch (e) {
    // Storage blocked: the app decides once it starts.
  }
})();
