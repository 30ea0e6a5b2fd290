//! The audit log's call, its entries' type (from the generated contract) and query key.

import { api, unwrap } from '@/api/client';
import type { components } from '@/api/schema';

/** `detail` is free-form JSON; the contract calls it an object without naming fields. */
export type AuditEntry = components['schemas']['AuditEntryBody'];

/** Under `admin`, like every console query, so signing out drops it with the rest. */
export const auditKey = (before: number | null) => ['admin', 'audit', before] as const;

/** The audit log's page size (server side, `PAGE` in audit.rs): a shorter page is the last. */
export const AUDIT_PAGE_SIZE = 50;

export async function fetchAudit(before: number | null): Promise<AuditEntry[]> {
  const page = await unwrap(api.GET('/api/admin/audit', { params: { query: before === null ? {} : { before } } }));
  return page.entries;
}
