//! Page links: 3 pages around the current one, 4 at each end. The pagination library loads
//! only when there is more than one page: a first visit to a shop whose events fit on one
//! page does not download it.

import { lazy, Suspense } from 'react';
import { useT } from '@/i18n';
import { MARGIN_PAGES, PAGE_RANGE } from '@/lib/constants';

const ReactPaginate = lazy(() => import('react-paginate'));

type Props = { pageCount: number; page: number; onChange: (page: number) => void };

/** `page` counts from 1. */
export function Pagination({ pageCount, page, onChange }: Props) {
  const t = useT();
  if (pageCount <= 1) return null;
  return (
    <Suspense fallback={null}>
      <ReactPaginate
        pageCount={pageCount}
        forcePage={page - 1}
        pageRangeDisplayed={PAGE_RANGE}
        marginPagesDisplayed={MARGIN_PAGES}
        onPageChange={({ selected }) => onChange(selected + 1)}
        previousLabel="‹"
        nextLabel="›"
        previousAriaLabel={t('pagination.previous')}
        nextAriaLabel={t('pagination.next')}
        containerClassName="pagination"
        activeClassName="active"
        disabledClassName="disabled"
        renderOnZeroPageCount={null}
      />
    </Suspense>
  );
}
