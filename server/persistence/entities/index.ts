import { Connection } from './connection.js';
import { ApiToken } from './api-token.js';
import { AlertDelivery, AlertDestination, AlertEvent, AlertRule } from './alerts.js';
import { AuditEvent } from './audit-event.js';
import { ExternalIdentity } from './external-identity.js';
import { Membership } from './membership.js';
import { Organization } from './organization.js';
import { QueueDiscoveryScan, QueueIndexEntry } from './queue-index.js';
import { Session } from './session.js';
import { Task } from './task.js';
import { User } from './user.js';
import { Invitation } from './invitation.js';
import { PasswordReset } from './password-reset.js';
import { InstanceSetting } from './instance-setting.js';
import { IdempotencyRecord } from './idempotency-record.js';
import { ConnectionSample, Lease, QueueSample } from './history.js';

/** Every entity Bullpen persists; one list for both databases. */
export const entities = [
  Organization,
  Connection,
  User,
  Session,
  Membership,
  ApiToken,
  AuditEvent,
  QueueIndexEntry,
  QueueDiscoveryScan,
  ExternalIdentity,
  AlertDestination,
  AlertRule,
  AlertEvent,
  AlertDelivery,
  Task,
  Invitation,
  PasswordReset,
  InstanceSetting,
  IdempotencyRecord,
  QueueSample,
  ConnectionSample,
  Lease,
];
