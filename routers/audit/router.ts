import { router } from '../../server/trpc/init.js';
import { listAuditEvents } from './list-audit-events.js';

export const auditRouter = router({ list: listAuditEvents });
