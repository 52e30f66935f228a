import { createTRPCClient, httpLink } from '@trpc/client';
import type { AppRouter } from '../routers/_app.js';

export type { AppRouter };

export interface BullpenClientOptions {
  /** Where the service runs, e.g. `http://localhost:3000`. */
  baseUrl: string;
  /** An API token, sent as `Authorization: Bearer <token>`. */
  token?: string;
  fetch?: typeof globalThis.fetch;
}

/** A typed client over every Bullpen procedure (tRPC, at `/api/trpc`). */
export function createBullpenClient(options: BullpenClientOptions) {
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: `${options.baseUrl.replace(/\/$/, '')}/api/trpc`,
        ...(options.fetch ? { fetch: options.fetch } : {}),
        headers: () => (options.token ? { authorization: `Bearer ${options.token}` } : {}),
      }),
    ],
  });
}
