/**
 * A member's page rendered on the server: between the API server (api/http/member-pages.ts),
 * which asks for it and sends it, and the client's server build (web/src/app/member-page.tsx),
 * which renders it, and the browser (web/src/main.tsx), which adopts it.
 */

/** A member's request for a page, as the API server saw it. */
export interface MemberPageRequest {
  /** Path and query, e.g. `/creator/abc?promo=x`. */
  url: string;
  /** The request's Cookie header: the API is asked as this member. */
  cookie: string;
  /** Where this API server answers itself, e.g. `http://127.0.0.1:3000`. */
  origin: string;
  /** The IANA zone the member's browser reported (its `tz` cookie): dates are written in it. */
  timeZone: string;
}

/** One RTK Query result the browser puts in its cache before adopting the page. */
export interface RenderedQuery {
  endpointName: string;
  arg: unknown;
  value: unknown;
}

export interface RenderedMemberPage {
  /** The frame the page goes into: web/dist/pages/member/<frame>.html (web/prerender.ts writes them). */
  frame: string;
  markup: string;
  /** Its styles, for the head. */
  style: string;
  queries: RenderedQuery[];
}

/** The id of the <script type="application/json"> element that carries the page's queries. */
export const RENDERED_QUERIES_ID = 'lively-state';

/** The cookie in which the browser tells the server its time zone. */
export const TIME_ZONE_COOKIE = 'tz';
