// A worker (web/src/lib/time-zone-cookie.ts): the browser's time zone name. Intl's first use in a
// page loads its time zone data, a long task on a phone; asked here, it runs off the page's thread.
postMessage(Intl.DateTimeFormat().resolvedOptions().timeZone);
