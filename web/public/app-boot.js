// The pre-rendered app pages' loader (web/prerender.ts): the page is painted from its HTML first,
// then the app's modules are fetched (all at once, from the list the build wrote on this tag) and
// hydrate it. Fetching them before the first paint would make a phone's first paint wait for them.
(function () {
  var tag = document.currentScript;
  var entry = tag.getAttribute('data-entry');
  var files = (tag.getAttribute('data-preload') || '').split(' ').filter(Boolean);
  // Each link starts a fetch, about 5 ms of a phone's CPU apiece: one link a task, so that no
  // task is long, then the import.
  function load() {
    var file = files.shift();
    if (file === undefined) {
      import(entry);
      return;
    }
    var link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = file;
    document.head.appendChild(link);
    window.setTimeout(load, 0);
  }
  // After the next frame: the page has been painted by then.
  window.requestAnimationFrame(function () {
    window.setTimeout(load, 0);
  });
})();
