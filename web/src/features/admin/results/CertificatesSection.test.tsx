//! Finisher certificates in the console: offering them at a price is saved as typed, a
//! template file is sent as SVG text and the event's own is then shown, the server's
//! refusal of a template is shown with its reason, and an own template goes back to the
//! shop's.

import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { errorResponse, fakeFetch } from '@/test/render';
import { renderAsOperator } from '../shell/testing';
import type { CertificatesBody } from './certificatesApi';
import { CertificatesSection } from './CertificatesSection';

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="1080" height="1350"><text>{{name}}</text></svg>';

function settings(fields: Partial<CertificatesBody> = {}): CertificatesBody {
  return {
    offered: false,
    price: 0,
    image: { custom: false, svg: '<svg/>' },
    print: { custom: false, svg: '<svg/>' },
    fields: ['name', 'chip_time'],
    ...fields,
  };
}

function renderSection() {
  return renderAsOperator(<CertificatesSection eventKey="race" />, {
    lang: 'en',
    path: '/admin/events/:eventKey/results',
    route: '/admin/events/race/results',
  });
}

afterEach(() => vi.unstubAllGlobals());

describe('CertificatesSection', () => {
  it('offers certificates at the price typed', async () => {
    const { calls } = fakeFetch({
      'GET /api/admin/events/race/certificates': settings(),
      'PUT /api/admin/events/race/certificates': settings({ offered: true, price: 49 }),
    });
    const user = userEvent.setup();
    renderSection();
    await user.click(await screen.findByTestId('certificates-offered'));
    await user.clear(screen.getByTestId('certificates-price'));
    await user.type(screen.getByTestId('certificates-price'), '49');
    await user.click(screen.getByTestId('certificates-save'));
    expect(await screen.findByText('Certificate settings saved')).toBeInTheDocument();
    const put = calls.find((c) => c.key === 'PUT /api/admin/events/race/certificates');
    expect(put?.body).toEqual({ offered: true, price: 49 });
    expect(screen.getByText(/A priced certificate is sold in the cart: runners add it from their result/)).toBeInTheDocument();
    expect(screen.getByTestId('certificates')).toHaveTextContent('{{name}} {{chip_time}}');
  });

  it('sends a template, shows a refusal with its reason, and goes back to the shop’s', async () => {
    let refuse = true;
    const { calls } = fakeFetch({
      'GET /api/admin/events/race/certificates': settings(),
      'PUT /api/admin/events/race/certificates/image': () =>
        refuse
          ? errorResponse(422, 'invalid_field', { body: { field: 'svg', message: 'unknown field {{password}}' } })
          : settings({ image: { custom: true, svg: SVG } }),
      'DELETE /api/admin/events/race/certificates/image': settings(),
    });
    const user = userEvent.setup();
    renderSection();
    const image = await screen.findByTestId('certificates-image');
    expect(within(image).getByTestId('certificates-image-state')).toHaveTextContent('The shop’s template');
    const file = () => new File([SVG], 'mine.svg', { type: 'image/svg+xml' });
    await user.upload(within(image).getByTestId('certificates-image-file'), file());
    expect(await within(image).findByTestId('certificates-image-problem')).toBeInTheDocument();
    refuse = false;
    await user.upload(within(image).getByTestId('certificates-image-file'), file());
    expect(await screen.findByText('Template saved')).toBeInTheDocument();
    expect(within(image).getByTestId('certificates-image-state')).toHaveTextContent('This event’s own template');
    const put = calls.filter((c) => c.key === 'PUT /api/admin/events/race/certificates/image');
    expect(put.at(-1)?.body).toBe(SVG);
    await user.click(within(image).getByTestId('certificates-image-reset'));
    expect(await within(image).findByText('The shop’s template')).toBeInTheDocument();
  });
});
