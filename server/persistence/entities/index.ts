import { Connection } from './connection.js';
import { ApiToken } from './api-token.js';
import { AuditEvent } from './audit-event.js';
import { Membership } from './membership.js';
import { Organization } from './organization.js';
import { Session } from './session.js';
import { User } from './user.js';

/** Every entity Bullpen persists; one list for both databases. */
export const entities = [Organization, Connection, User, Session, Membership, ApiToken, AuditEvent];
