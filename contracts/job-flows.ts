import { z } from 'zod';
import { jobParams } from './params.js';
import { jobRefSchema, type JobRef } from './jobs.js';

export const maxTreeDepth = 10;
export const maxTreeChildren = 100;
export const maxTreeNodes = 1000;

export const jobTreeInput = jobParams.extend({
  depth: z.number().int().min(1).max(maxTreeDepth).default(3).describe('Levels of children below the job.'),
  maxChildren: z.number().int().min(1).max(maxTreeChildren).default(20).describe('Children listed per job.'),
});

export interface JobTreeNode extends JobRef {
  childrenTotal: number;
  truncated: boolean;
  children: JobTreeNode[];
}

export const jobTreeNodeSchema: z.ZodType<JobTreeNode> = jobRefSchema
  .extend({
    childrenTotal: z.number().int().describe('Children the job has, listed or not.'),
    truncated: z.boolean().describe('Whether some children were left out (maxChildren, depth or the node cap).'),
    get children(): z.ZodArray<z.ZodType<JobTreeNode>> {
      return z.array(jobTreeNodeSchema);
    },
  })
  .meta({ id: 'JobTreeNode' });

export const jobTreeSchema = z
  .object({
    root: jobTreeNodeSchema,
    nodes: z.number().int().describe(`Nodes in the answer (at most ${maxTreeNodes}).`),
  })
  .meta({ id: 'JobTree' });
