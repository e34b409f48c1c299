// The endpoints of the results a member's page comes with (app/member-page.tsx prefetches them):
// they must be known before those results go into the browser's cache, else it skips them. The
// boot evaluates this module in a task of its own (web/src/main.tsx); the app imports it too.
import '@/lib/creators-api';
import '@/lib/notifications-api';
