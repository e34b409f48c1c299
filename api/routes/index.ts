import type { Router } from 'express';
import type { Api } from '../kit';
import { clientLogRoutes } from './client-logs';
import { healthRoutes } from './health';

/** Every route module of the API, mounted under /api. Each bounded context adds its own. */
export const routeModules: Array<(api: Api) => Router> = [healthRoutes, clientLogRoutes];
