import { z } from 'zod';
import { sessionSnapshotSchema } from '../../contracts/system.js';
import { authlessSessionSnapshot, signedOutSnapshot } from '../../domain/system/session-snapshot.js';
import { persistedProcedure } from '../../server/trpc/procedures.js';

export const session = persistedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/session',
      tags: ['system'],
      summary: 'Session snapshot: user, active organization, role, memberships',
      errorResponses: { 500: 'Persistence is unavailable' },
    },
  })
  .input(z.void())
  .output(sessionSnapshotSchema)
  .query(({ ctx }) => (ctx.services.config.authless ? authlessSessionSnapshot(ctx.em) : signedOutSnapshot));
