import { connectionParams } from '../../contracts/params.js';
import { discoveryStatusSchema } from '../../contracts/discovery.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';
import { discoveryPath, discoveryTags } from './openapi.js';

export const getProcedure = connectionProcedure
  .meta({
    permission: 'queues.read',
    openapi: {
      method: 'GET',
      path: discoveryPath,
      tags: discoveryTags,
      summary: "The connection's queue index: last scan, queues known, whether it can miss any",
      description:
        'Queue lists read a persisted index of queue names, reconciled by background scans. `complete: false` names why queues may be missing (a scan cut short by the SCAN cap, a failed scan, none finished yet); queues a scan did not see are kept until a complete scan.',
    },
  })
  .input(connectionParams)
  .output(discoveryStatusSchema)
  .query(({ ctx }) => ctx.services.queueDirectory.status(ctx.store));
