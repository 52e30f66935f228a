import { connectionParams } from '../../contracts/params.js';
import { discoveryStatusSchema } from '../../contracts/discovery.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';
import { discoveryPath, discoveryTags } from './openapi.js';

export const scanProcedure = connectionProcedure
  .meta({
    permission: 'queues.discover',
    successStatus: 202,
    location: '/c/{connectionId}/discovery',
    openapi: {
      method: 'POST',
      path: discoveryPath,
      tags: discoveryTags,
      summary: 'Start a scan of the store for queues now (202); GET the same path to follow it',
      description:
        'Joins the running scan when one is under way. The scan runs in the background; the answer is the status as it starts.',
    },
  })
  .input(connectionParams)
  .output(discoveryStatusSchema)
  .mutation(async ({ ctx }) => {
    const directory = ctx.services.queueDirectory;
    const scan = directory.rescan(ctx.store);
    // Failures are reported by the status (incompleteReason), not by this call.
    scan.catch(() => undefined);
    return directory.status(ctx.store);
  });
