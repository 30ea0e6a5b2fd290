//! The audit log (`/admin/audit`, admins only): who did what to what, and when, newest
//! first, 50 a page; accounts by their e-mail, which the server joins to the ids it keeps. "Older" asks for the entries before the page's last id; the ids seen
//! are kept so "Newer" can step back without the server having to page forwards.

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DataTable } from '@/components/DataTable';
import { Spinner } from '@/components/Spinner';
import { useDictionary, useLanguage, useT } from '@/i18n';
import { formatBangkokDateTime } from '@/lib/dates';
import { AdminOnly } from '../shell/operator';
import { RetryAlert } from '../shell/RetryAlert';
import { AUDIT_PAGE_SIZE, auditKey, fetchAudit, type AuditEntry } from './api';
import { auditMessages } from './messages';

function hasDetail(detail: unknown): boolean {
  if (detail === null || detail === undefined) return false;
  if (typeof detail === 'object') return Object.keys(detail).length > 0;
  return true;
}

function Detail({ detail }: { detail: unknown }) {
  const t = useDictionary(auditMessages);
  if (!hasDetail(detail)) return <span className="muted">{t('adminAudit.noDetail')}</span>;
  return (
    <details className="admin-detail">
      <summary>{t('adminAudit.showDetail')}</summary>
      <pre>{JSON.stringify(detail, null, 2)}</pre>
    </details>
  );
}

/**
 * Who acted: the log keeps ids, never typed text. An account shows its e-mail (looked up by
 * the server now) with its id; a sign-in on an address without an account shows as such,
 * with the hash that ties its tries together.
 */
function Actor({ entry }: { entry: AuditEntry }) {
  const t = useDictionary(auditMessages);
  const email = entry.actor_email ?? null;
  if (email !== null) {
    return (
      <>
        {email} <span className="muted">({entry.actor})</span>
      </>
    );
  }
  if (entry.actor.startsWith('unknown:') || entry.actor === 'unknown') {
    return (
      <>
        {t('adminAudit.unknownAddress')} <span className="muted">({entry.actor})</span>
      </>
    );
  }
  return <>{entry.actor}</>;
}

function AuditRows({ entries }: { entries: AuditEntry[] }) {
  const t = useDictionary(auditMessages);
  const [lang] = useLanguage();
  return (
    <DataTable
      className="admin-table"
      testId="audit-table"
      columns={[
        t('adminAudit.when'),
        t('adminAudit.who'),
        t('adminAudit.what'),
        t('adminAudit.target'),
        t('adminAudit.detail'),
      ]}
    >
      {entries.map((e) => (
        <tr key={e.id} data-testid="audit-row">
          <td className="admin-nowrap">{formatBangkokDateTime(e.at, lang)}</td>
          <td className="admin-wrap" data-testid="audit-actor">
            <Actor entry={e} />
          </td>
          <td>
            <code>{e.action}</code>
          </td>
          <td className="admin-wrap">{e.target || <span className="muted">{t('adminAudit.noDetail')}</span>}</td>
          <td>
            <Detail detail={e.detail} />
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

export function AuditPage() {
  const t = useDictionary(auditMessages);
  return (
    <section className="admin-page">
      <h1>{t('adminAudit.title')}</h1>
      <AdminOnly>
        <AuditLog />
      </AdminOnly>
    </section>
  );
}

function AuditLog() {
  const t = useDictionary(auditMessages);
  const common = useT();
  // The `before` of every page stepped into; empty on the newest page.
  const [cursors, setCursors] = useState<number[]>([]);
  const before = cursors.at(-1) ?? null;
  const audit = useQuery({
    queryKey: auditKey(before),
    queryFn: () => fetchAudit(before),
    placeholderData: keepPreviousData,
  });

  const entries = audit.data ?? [];
  const last = entries.at(-1);
  const hasOlder = !audit.isPlaceholderData && entries.length >= AUDIT_PAGE_SIZE && last !== undefined;

  return (
    <>
      <p className="muted">{t('adminAudit.intro')}</p>
      {audit.isPending && <Spinner label={common('loading')} />}
      {audit.isError && <RetryAlert query={audit} />}
      {audit.isSuccess && entries.length === 0 && <p className="muted">{t('adminAudit.empty')}</p>}
      {entries.length > 0 && <AuditRows entries={entries} />}
      {(cursors.length > 0 || hasOlder) && (
        <nav className="row admin-audit-paging" aria-label={t('adminAudit.paging')}>
          <button
            type="button"
            className="btn btn-secondary btn-small"
            disabled={cursors.length === 0}
            onClick={() => setCursors([])}
            data-testid="audit-newest"
          >
            {t('adminAudit.newest')}
          </button>
          <button
            type="button"
            className="btn btn-secondary btn-small"
            disabled={cursors.length === 0}
            onClick={() => setCursors((c) => c.slice(0, -1))}
            data-testid="audit-newer"
          >
            {t('adminAudit.newer')}
          </button>
          <button
            type="button"
            className="btn btn-secondary btn-small"
            disabled={!hasOlder}
            onClick={() => last && setCursors((c) => [...c, last.id])}
            data-testid="audit-older"
          >
            {t('adminAudit.older')}
          </button>
          {audit.isFetching && <Spinner inline label={common('loading')} />}
        </nav>
      )}
    </>
  );
}
