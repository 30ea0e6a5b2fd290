//! Race results page: a chosen file is checked first (the server's guess of each column
//! shown), bad lines are listed and nothing can be imported, a column chosen by the admin
//! goes with the next check and the import, and one runner's row is deleted by bib.

import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeFetch } from '@/test/render';
import { noContent, renderAsOperator } from '../shell/testing';
import type { ResultsChecked } from './api';
import { ResultsPage } from './ResultsPage';

const CSV = 'Bib,Runner,Net\n42,Somchai Jaidee,1:02:03\n';

function checked(fields: Partial<ResultsChecked> = {}): ResultsChecked {
  return {
    imported: false,
    rows: 1,
    headers: ['Bib', 'Runner', 'Net'],
    columns: { bib: 'Bib', name: 'Runner' },
    problems: [],
    ...fields,
  };
}

function renderPage() {
  return renderAsOperator(<ResultsPage />, {
    lang: 'en',
    path: '/admin/events/:eventKey/results',
    route: '/admin/events/race/results',
  });
}

afterEach(() => vi.unstubAllGlobals());

describe('ResultsPage', () => {
  it('checks a file, lists its bad lines and imports nothing', async () => {
    fakeFetch({
      'GET /api/admin/events/race/results': { imported_at: null, rows: 0, columns: {} },
      'PUT /api/admin/events/race/results': checked({
        rows: 0,
        problems: [{ line: 3, reason: 'bib "x": a bib is a number, optionally after one letter' }],
      }),
    });
    const user = userEvent.setup();
    renderPage();
    expect(await screen.findByTestId('results-last')).toHaveTextContent('No results imported yet');
    await user.upload(screen.getByTestId('results-file'), new File([CSV], 'results.csv', { type: 'text/csv' }));
    expect(await screen.findByTestId('results-problems')).toHaveTextContent('Line 3: bib "x"');
    expect(screen.getByTestId('results-import')).toBeDisabled();
  });

  it('sends the chosen columns with the check and the import', async () => {
    let imported = false;
    const puts: { body: unknown; query: URLSearchParams }[] = [];
    fakeFetch({
      'GET /api/admin/events/race/results': () =>
        imported
          ? { imported_at: '2026-12-05T10:00:00+07:00', rows: 1, columns: { bib: 'Bib' } }
          : { imported_at: null, rows: 0, columns: {} },
      'PUT /api/admin/events/race/results': (body: unknown, query: URLSearchParams) => {
        puts.push({ body, query });
        if (query.get('check') === 'true') return checked({ columns: { bib: 'Bib', name: 'Runner', chip_time: query.get('chip_time') ?? '' } });
        imported = true;
        return checked({ imported: true });
      },
    });
    const user = userEvent.setup();
    renderPage();
    await user.upload(screen.getByTestId('results-file'), new File([CSV], 'results.csv', { type: 'text/csv' }));
    expect(await screen.findByTestId('results-checked')).toHaveTextContent('1 rows read');
    expect(screen.getByTestId('results-col-name')).toHaveValue('Runner');
    await user.selectOptions(screen.getByTestId('results-col-chip_time'), 'Net');
    await user.click(screen.getByTestId('results-check'));
    await user.click(screen.getByTestId('results-import'));
    expect(await screen.findByTestId('results-last')).toHaveTextContent('Last imported');
    expect(puts[0]?.body).toBe(CSV);
    expect(puts[0]?.query.get('chip_time')).toBeNull();
    expect(puts[1]?.query.get('chip_time')).toBe('Net');
    expect(puts[2]?.query.get('check')).toBe('false');
    expect(puts[2]?.query.get('chip_time')).toBe('Net');
  });

  it("deletes one runner's row by bib", async () => {
    const { calls } = fakeFetch({
      'GET /api/admin/events/race/results': { imported_at: null, rows: 0, columns: {} },
      'DELETE /api/admin/events/race/results/42': noContent,
    });
    const user = userEvent.setup();
    renderPage();
    await user.type(screen.getByTestId('results-delete-bib'), ' 42 ');
    await user.click(screen.getByTestId('results-delete'));
    expect(await screen.findByText('Result of bib 42 deleted')).toBeInTheDocument();
    expect(calls.some((c) => c.key === 'DELETE /api/admin/events/race/results/42')).toBe(true);
  });
});
