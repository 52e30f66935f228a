import express, { type Router } from 'express';
import type { OpenAPIObject } from 'trpc-to-openapi';

/**
 * The Swagger UI reference page, from the swagger-ui-dist files in
 * node_modules (no CDN). Loaded on the first visit: most deployments never
 * open it, and the module costs the process ~20 MB. The document too is
 * built on first use.
 */
export function apiDocs(document: () => OpenAPIObject): Router {
  const router = express.Router();
  let handlers: Promise<express.RequestHandler[]> | undefined;
  const load = async () => {
    const { default: swaggerUi } = await import('swagger-ui-express');
    return [
      ...swaggerUi.serveFiles(document()),
      swaggerUi.setup(document(), { customSiteTitle: 'Bullpen API reference' }),
    ];
  };
  router.use(async (req, res, next) => {
    try {
      handlers ??= load();
      const chain = await handlers;
      const run = (index: number): void => {
        if (index >= chain.length) return next();
        chain[index]!(req, res, (error?: unknown) => (error ? next(error) : run(index + 1)));
      };
      run(0);
    } catch (error) {
      next(error);
    }
  });
  return router;
}
