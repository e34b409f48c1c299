/**
 * The server build of the client (web/prerender.ts builds it into web/dist/.server): the public
 * pages rendered at build time, and members' pages rendered per request by the API server.
 */
export { prerenderPage } from './prerender-page';
export { renderMemberPage } from './member-page';
