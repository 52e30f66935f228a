import type { Request, Response } from 'express';

/** `GET /` and `GET /api`: where a newcomer finds the reference and the document, instead of a bare 404. */
export function apiIndex(basePath: string, version: string) {
  const body = {
    name: 'Bullpen API',
    version,
    docs: `${basePath}/docs`,
    openapi: `${basePath}/openapi.json`,
    health: `${basePath}/health`,
    /** The Model Context Protocol endpoint for agents (POST, API token). */
    mcp: `${basePath}/mcp`,
  };
  return (_req: Request, res: Response): void => void res.json(body);
}
