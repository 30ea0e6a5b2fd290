//! The console's page links: the shared `Pagination` (the shop's page range and margins) with
//! a "which rows" summary, for the console's lists that answer `{total, page, page_size}`.

import { Pagination } from '@/components/Pagination';
import { useDictionary } from '@/i18n';
import { shellMessages } from './messages';

type Props = {
  /** Counts from 1. */
  page: number;
  total: number;
  pageSize: number;
  onChange: (page: number) => void;
};

export function AdminPagination({ page, total, pageSize, onChange }: Props) {
  const t = useDictionary(shellMessages);
  if (total <= 0 || pageSize <= 0) return null;
  const pageCount = Math.ceil(total / pageSize);
  const from = Math.min(total, (page - 1) * pageSize + 1);
  const to = Math.min(total, page * pageSize);
  return (
    <nav className="admin-pagination" aria-label={t('shell.pagination.label')} data-testid="admin-pagination">
      <p className="admin-pagination-summary muted">{t('shell.pagination.summary', { from, to, total })}</p>
      <Pagination pageCount={pageCount} page={page} onChange={onChange} />
    </nav>
  );
}
