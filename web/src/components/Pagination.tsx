//! Page links with the spec's page range 3 and margin 4 (§9).

import ReactPaginate from 'react-paginate';
import { useT } from '@/i18n';
import { MARGIN_PAGES, PAGE_RANGE } from '@/lib/constants';

type Props = { pageCount: number; page: number; onChange: (page: number) => void };

/** `page` counts from 1. */
export function Pagination({ pageCount, page, onChange }: Props) {
  const t = useT();
  if (pageCount <= 1) return null;
  return (
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
  );
}
