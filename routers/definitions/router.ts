import type { DefinitionWriters } from './definition-writers.js';
import { router } from '../../server/trpc/init.js';
import { exportProcedureWith } from './export.js';
import { importProcedureWith } from './import.js';

/** Export and import of definitions, with the writers of the resources they cover (handed over by the root router). */
export const definitionsRouter = (writers: DefinitionWriters) =>
  router({ export: exportProcedureWith(writers), import: importProcedureWith(writers) });
