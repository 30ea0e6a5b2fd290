//! The audit log (`/admin/audit`, admins only): who did what to what, and when, newest
//! first, 50 a page; accounts by their e-mail, which the server joins to the ids it keeps. "Older" asks for the entries before the page's last id; the ids seen
//! are kept so "Newer" can step back without the server having to page forwards.

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DataTable } from '@/components/DataTable';
import { Spinner } from '@/components/Spinner';
import { useDictionary, useLanguage } from '@/i18n';
import { formatBangkokDateTime } from '@/lib/dates';
import { adminKeys, AUDIT_PAGE_SIZE, fetchAudit } from './api';
import { shellMessages } from './messages';
import { AdminOnly } from './operator';
import { RetryAlert } from './RetryAlert';
import type { AuditEntry } from './types';

function hasDetail(detail: unknown): boolean {
  if (detail === null || detail === undefined) return false;
  if (typeof detail === 'object') return Object.keys(detail).length > 0;
  return true;
}

function Detail({ detail }: { detail: unknown }) {
  const t = useDictionary(shellMessages);
  if (!hasDetail(detail)) return <span className="muted">{t('shell.audit.noDetail')}</span>;
  return (
    <details className="admin-detail">
      <summary>{t('shell.audit.showDetail')}</summary>
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
  const t = useDictionary(shellMessages);
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
        {t('shell.audit.unknownAddress')} <span className="muted">({entry.actor})</span>
      </>
    );
  }
  return <>{entry.actor}</>;
}

function AuditRows({ entries }: { entries: AuditEntry[] }) {
  const t = useDictionary(shellMessages);
  const [lang] = useLanguage();
  return (
    <DataTable
      className="admin-table"
      testId="audit-table"
      columns={[
        t('shell.audit.when'),
        t('shell.audit.who'),
        t('shell.audit.what'),
        t('shell.audit.target'),
        t('shell.audit.detail'),
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
          <td className="admin-wrap">{e.target || <span className="muted">{t('shell.audit.noDetail')}</span>}</td>
          <td>
            <Detail detail={e.detail} />
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

export function AuditPage() {
  const t = useDictionary(shellMessages);
  return (
    <section className="admin-page">
      <h1>{t('shell.audit.title')}</h1>
      <AdminOnly>
        <AuditLog />
      </AdminOnly>
    </section>
  );
}

function AuditLog() {
  const t = useDictionary(shellMessages);
  // The `before` of every page stepped into; empty on the newest page.
  const [cursors, setCursors] = useState<number[]>([]);
  const before = cursors.at(-1) ?? null;
  const audit = useQuery({
    queryKey: adminKeys.audit(before),
    queryFn: () => fetchAudit(before),
    placeholderData: keepPreviousData,
  });

  const entries = audit.data ?? [];
  const last = entries.at(-1);
  const hasOlder = !audit.isPlaceholderData && entries.length >= AUDIT_PAGE_SIZE && last !== undefined;

  return (
    <>
      <p className="muted">{t('shell.audit.intro')}</p>
      {audit.isPending && <Spinner label={t('shell.loading')} />}
      {audit.isError && <RetryAlert query={audit} />}
      {audit.isSuccess && entries.length === 0 && <p className="muted">{t('shell.audit.empty')}</p>}
      {entries.length > 0 && <AuditRows entries={entries} />}
      {(cursors.length > 0 || hasOlder) && (
        <nav className="row admin-audit-paging" aria-label={t('shell.audit.paging')}>
          <button
            type="button"
            className="btn btn-secondary btn-small"
            disabled={cursors.length === 0}
            onClick={() => setCursors([])}
            data-testid="audit-newest"
          >
            {t('shell.audit.newest')}
          </button>
          <button
            type="button"
            className="btn btn-secondary btn-small"
            disabled={cursors.length === 0}
            onClick={() => setCursors((c) => c.slice(0, -1))}
            data-testid="audit-newer"
          >
            {t('shell.audit.newer')}
          </button>
          <button
            type="button"
            className="btn btn-secondary btn-small"
            disabled={!hasOlder}
            onClick={() => last && setCursors((c) => [...c, last.id])}
            data-testid="audit-older"
          >
            {t('shell.audit.older')}
          </button>
          {audit.isFetching && <Spinner inline label={t('shell.loading')} />}
        </nav>
      )}
    </>
  );
}
