import { createHash } from 'node:crypto';
import cookieParser from 'cookie-parser';
import express, { type Express, type RequestHandler } from 'express';
import { THEME_SCRIPT } from '../domain/contracts/theme-script';
import type { AppDependencies } from './dependencies';
import { apiNotFound, errorHandler } from './http/errors';
import { inputGuard } from './http/input-guard';
import { originCheck } from './http/origin-check';
import { validatedParams } from './http/params';
import { requestContext } from './http/request-context';
import { securityHeaders } from './http/security-headers';
import { webAssets, webPage } from './http/web-assets';
import { createApi, type Api } from './kit';
import { routeModules } from './routes';
import { mediaFileRoutes } from './routes/media-files';
import { createMetrics, metricsOnPublicPort } from './routes/metrics';

/**
 * API answers are never stored by the browser or a shared cache: signed in they are personal,
 * and the sign-in answers themselves carry the user.
 */
const noStore: RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  next();
};

/**
 * A file the build does not have (an old hashed asset, a typo) is a 404: the HTML shell in its
 * place would be taken for the script or style that was asked for, and cached as such.
 */
const missingFile: RequestHandler = (req, res, next) => {
  const isFile = req.path.startsWith('/assets/') || /\.[A-Za-z0-9]+$/.test(req.path);
  if ((req.method === 'GET' || req.method === 'HEAD') && isFile)
    return void res.status(404).json({ error: 'Not found', code: 'NOT_FOUND' });
  next();
};

/** The express app: /api routes, and the built web client on the same origin. */
export function createApp(deps: AppDependencies): {
  app: Express;
  api: Api;
  metrics: ReturnType<typeof createMetrics>;
} {
  const api = createApi(deps);
  const app = express();
  app.disable('x-powered-by');
  // No ETag hashed from every body: API answers and members' pages are no-store, and the files
  // that are cached (static assets, media) carry ETags of their own.
  app.disable('etag');
  app.set('trust proxy', deps.trustProxy);
  app.use(requestContext(deps.logger));
  const metrics = createMetrics(api);
  app.use(metrics.middleware);
  app.use(
    securityHeaders({
      contentSecurityPolicy: {
        directives: {
          // Scripts from this origin, and the one inline script every page starts with, by its hash.
          'script-src': ["'self'", `'sha256-${createHash('sha256').update(THEME_SCRIPT).digest('base64')}'`],
          'img-src': ["'self'", 'data:', 'blob:', 'https:'],
          'media-src': ["'self'", 'blob:', 'https:'],
          'connect-src': ["'self'", 'ws:', 'wss:'],
          'upgrade-insecure-requests': null,
        },
      },
      crossOriginEmbedderPolicy: false,
      hsts: deps.trustProxy,
    }),
  );

  const apiRouter = express.Router();
  apiRouter.use(noStore);
  apiRouter.use(express.json({ limit: '100kb' }));
  apiRouter.use(cookieParser());
  apiRouter.use(originCheck(deps.allowedOrigins));
  apiRouter.use(inputGuard);
  apiRouter.use(api.pageReads); // their reads resolve the session: one round trip a page-load GET
  apiRouter.use(mediaFileRoutes(api)); // resolves its session with the entitlement: one round trip a file
  apiRouter.use(api.sessions.middleware());
  for (const module of routeModules) apiRouter.use(validatedParams(module(api)));
  apiRouter.use(validatedParams(api.pageReadParams));
  apiRouter.use(apiNotFound);
  app.use('/api', apiRouter);
  app.use(metricsOnPublicPort(metrics.router, deps.metricsToken ?? null)); // the metrics port serves them without a token

  if (deps.webRoot) {
    app.use(webAssets(deps.webRoot));
    app.use(missingFile);
    // Client-side routes: every other GET gets the app shell, or a visitor the page pre-rendered.
    app.get(/^(?!\/api\/|\/ws\/).*/, webPage(deps.webRoot, deps.memberPageBudgetMs));
  }
  app.use(errorHandler);
  return { app, api, metrics };
}
